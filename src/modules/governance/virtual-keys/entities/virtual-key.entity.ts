import { Column, CreateDateColumn, Entity, Index, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/**
 * A virtual key: the identity data-plane callers present. Its secret values live in `virtual_key_credentials`
 * (several at once during a rotation grace period); provider configs, budgets and rate limits will hang off this row
 * in their own tables.
 */
@Entity({ name: 'virtual_keys' })
@Index('uq_virtual_keys_name', ['name'], { unique: true })
export class VirtualKeyEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'pk_virtual_keys' })
  id: string;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'text', default: '' })
  description: string;

  @Column({ name: 'is_active', type: 'boolean', default: true })
  is_active: boolean;

  @Column({ name: 'expires_at', type: 'timestamptz', nullable: true })
  expires_at: Date | null;

  /** Teams and customers arrive with a later governance issue; no foreign keys until their tables exist. */
  @Column({ name: 'team_id', type: 'uuid', nullable: true })
  team_id: string | null;

  @Column({ name: 'customer_id', type: 'uuid', nullable: true })
  customer_id: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  created_at: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updated_at: Date;
}
