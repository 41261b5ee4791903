import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { ProfileFieldColumns } from './profile-field-columns.js';

/**
 * An access profile template (enterprise). Users hold copies of it (`access_profile_copies`), each with a managed
 * virtual key; a change here reaches the copies only through a propagation. `version` counts stored versions.
 */
@Entity({ name: 'access_profiles' })
@Index('uq_access_profiles_name', ['name'], { unique: true })
export class AccessProfileEntity extends ProfileFieldColumns {
  @PrimaryGeneratedColumn('increment', { type: 'integer', primaryKeyConstraintName: 'pk_access_profiles' })
  id: number;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'text', default: '' })
  description: string;

  @Column({ name: 'is_active', type: 'boolean', default: true })
  is_active: boolean;

  @Column({ type: 'jsonb', default: () => "'[]'" })
  tags: string[];

  @Column({ type: 'integer', default: 1 })
  version: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  created_at: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updated_at: Date;
}
