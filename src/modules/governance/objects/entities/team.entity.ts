import { Column, CreateDateColumn, Entity, Index, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/** A team: virtual keys belong to it; its budgets and rate limit cover every one of them. */
@Entity({ name: 'teams' })
@Index('uq_teams_name', ['name'], { unique: true })
export class TeamEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'pk_teams' })
  id: string;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  created_at: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updated_at: Date;
}
