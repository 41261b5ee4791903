import { Column, CreateDateColumn, Entity, Index, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import type { PermissionPair } from '../../../../core/auth/permissions.js';

@Entity({ name: 'roles' })
@Index('uq_roles_name', ['name'], { unique: true })
export class RoleEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'pk_roles' })
  id: string;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'text', default: '' })
  description: string;

  /**
   * (resource, operation) pairs, never merged strings. Empty for built-in roles: theirs are computed in code
   * (builtin-roles.ts) so they follow the resource list.
   */
  @Column({ type: 'jsonb' })
  permissions: PermissionPair[];

  @Column({ name: 'is_builtin', type: 'boolean', default: false })
  is_builtin: boolean;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  created_at: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updated_at: Date;
}
