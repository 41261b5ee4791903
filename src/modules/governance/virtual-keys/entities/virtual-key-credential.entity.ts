import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { VirtualKeyEntity } from './virtual-key.entity.js';

/**
 * One accepted value of a virtual key, stored as its SHA-256. The current value has no `retires_at`; a rotation with
 * a grace period keeps the old value until `retires_at`, without one it deletes it.
 */
@Entity({ name: 'virtual_key_credentials' })
@Index('uq_virtual_key_credentials_value_hash', ['value_hash'], { unique: true })
@Index('ix_virtual_key_credentials_virtual_key_id', ['virtual_key_id'])
export class VirtualKeyCredentialEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'pk_virtual_key_credentials' })
  id: string;

  @Column({ name: 'virtual_key_id', type: 'uuid' })
  virtual_key_id: string;

  @ManyToOne(() => VirtualKeyEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'virtual_key_id', foreignKeyConstraintName: 'fk_virtual_key_credentials_virtual_key_id' })
  virtual_key?: VirtualKeyEntity;

  @Column({ name: 'value_hash', type: 'char', length: 64 })
  value_hash: string;

  /** The value masked (`maskKeyValue`), for lists; null on values made before hints were stored. */
  @Column({ name: 'value_hint', type: 'varchar', length: 16, nullable: true })
  value_hint: string | null;

  @Column({ name: 'retires_at', type: 'timestamptz', nullable: true })
  retires_at: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  created_at: Date;
}
