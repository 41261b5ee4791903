import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { RoleEntity } from '../../governance/index.js';
import { AccessProfileEntity } from './access-profile.entity.js';

/**
 * A role attached to an access profile. `is_default`: users who gain the role get a copy of the profile (assigned via
 * the role), and lose it when they leave the role. Detaching removes no copy already made.
 */
@Entity({ name: 'access_profile_roles' })
@Index('uq_access_profile_roles_access_profile_id_role_id', ['access_profile_id', 'role_id'], { unique: true })
@Index('ix_access_profile_roles_role_id', ['role_id'])
export class AccessProfileRoleEntity {
  @PrimaryGeneratedColumn('increment', { type: 'integer', primaryKeyConstraintName: 'pk_access_profile_roles' })
  id: number;

  @Column({ name: 'access_profile_id', type: 'integer' })
  access_profile_id: number;

  @ManyToOne(() => AccessProfileEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'access_profile_id', foreignKeyConstraintName: 'fk_access_profile_roles_access_profile_id' })
  access_profile?: AccessProfileEntity;

  @Column({ name: 'role_id', type: 'uuid' })
  role_id: string;

  @ManyToOne(() => RoleEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'role_id', foreignKeyConstraintName: 'fk_access_profile_roles_role_id' })
  role?: RoleEntity;

  @Column({ name: 'is_default', type: 'boolean', default: false })
  is_default: boolean;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  created_at: Date;
}
