import { Column, CreateDateColumn, Entity, Index, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/** A customer: its virtual keys, and those of every team linked to it, are covered by its budgets and rate limit. */
@Entity({ name: 'customers' })
@Index('uq_customers_name', ['name'], { unique: true })
export class CustomerEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'pk_customers' })
  id: string;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  created_at: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updated_at: Date;
}
