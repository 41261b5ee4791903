import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import { RoleEntity, UserEntity } from '../../governance/index.js';
import { AccessProfileEntity } from './access-profile.entity.js';
import { ProfileFieldColumns } from './profile-field-columns.js';

export type CopyAssignment = 'direct' | 'role';

/**
 * One user's copy of an access profile: the template's fields as of its assignment or last propagation. Its managed
 * virtual keys point here (`virtual_keys.access_profile_copy_id`, cascade). One copy per user and profile.
 */
@Entity({ name: 'access_profile_copies' })
@Index('uq_access_profile_copies_user_id_parent_profile_id', ['user_id', 'parent_profile_id'], { unique: true })
@Index('ix_access_profile_copies_parent_profile_id', ['parent_profile_id'])
export class AccessProfileCopyEntity extends ProfileFieldColumns {
  @PrimaryGeneratedColumn('increment', { type: 'integer', primaryKeyConstraintName: 'pk_access_profile_copies' })
  id: number;

  @Column({ name: 'user_id', type: 'uuid' })
  user_id: string;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'fk_access_profile_copies_user_id' })
  user?: UserEntity;

  /** A template with copies cannot be deleted (the service answers 409; RESTRICT is the backstop). */
  @Column({ name: 'parent_profile_id', type: 'integer' })
  parent_profile_id: number;

  @ManyToOne(() => AccessProfileEntity, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'parent_profile_id', foreignKeyConstraintName: 'fk_access_profile_copies_parent_profile_id' })
  parent_profile?: AccessProfileEntity;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ name: 'is_active', type: 'boolean', default: true })
  is_active: boolean;

  @Column({ name: 'expires_at', type: 'timestamptz', nullable: true })
  expires_at: Date | null;

  /** `direct` (assigned by hand) or `role` (a role default); role changes replace only role assignments. */
  @Column({ name: 'assigned_via', type: 'varchar', length: 16, default: 'direct' })
  assigned_via: CopyAssignment;

  /** The role whose default assignment created it (assigned_via `role`). */
  @Column({ name: 'role_id', type: 'uuid', nullable: true })
  role_id: string | null;

  @ManyToOne(() => RoleEntity, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'role_id', foreignKeyConstraintName: 'fk_access_profile_copies_role_id' })
  role?: RoleEntity;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  created_at: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updated_at: Date;
}
