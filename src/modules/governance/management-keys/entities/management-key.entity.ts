import { Column, CreateDateColumn, Entity, Index, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import type { PermissionPair } from '../../../../core/auth/permissions.js';

@Entity({ name: 'management_keys' })
@Index('uq_management_keys_key_hash', ['key_hash'], { unique: true })
export class ManagementKeyEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'pk_management_keys' })
  id: string;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  /** SHA-256 (hex) of the `gwm_` value; the value itself is never stored. */
  @Column({ name: 'key_hash', type: 'char', length: 64 })
  key_hash: string;

  /** (resource, operation) pairs the key may use (enforced in the enterprise edition). */
  @Column({ type: 'jsonb' })
  scopes: PermissionPair[];

  @Column({ name: 'expires_at', type: 'timestamptz', nullable: true })
  expires_at: Date | null;

  @Column({ name: 'last_used_at', type: 'timestamptz', nullable: true })
  last_used_at: Date | null;

  /** Who created the key (principal id or kind), for the audit trail. */
  @Column({ name: 'created_by', type: 'varchar', length: 255, nullable: true })
  created_by: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  created_at: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updated_at: Date;
}
