import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
  UpdateDateColumn,
} from 'typeorm';
import { RoleEntity } from '../../rbac/entities/role.entity.js';

@Entity({ name: 'users' })
@Index('uq_users_email', ['email'], { unique: true })
@Index('ix_users_role_id', ['role_id'])
export class UserEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'pk_users' })
  id: string;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  /** Stored lower-cased, so uniqueness and login ignore case. */
  @Column({ type: 'varchar', length: 320 })
  email: string;

  @Column({ name: 'role_id', type: 'uuid' })
  role_id: string;

  /** A role in use cannot be deleted (the service answers 409 in_use; the constraint is the backstop). */
  @ManyToOne(() => RoleEntity, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'role_id', foreignKeyConstraintName: 'fk_users_role_id' })
  role?: RoleEntity;

  /** Teams arrive with a later governance issue; no foreign key until their table exists. */
  @Column({ name: 'team_id', type: 'uuid', nullable: true })
  team_id: string | null;

  /** `scrypt$N$r$p$salt$hash`; null when the user cannot log in with a password. Never returned. */
  @Column({ name: 'password_hash', type: 'text', nullable: true })
  password_hash: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  created_at: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updated_at: Date;
}
