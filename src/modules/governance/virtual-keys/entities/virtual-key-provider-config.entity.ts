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
import type { ProviderId } from '../../../inference/index.js';
import { VirtualKeyEntity } from './virtual-key.entity.js';

/**
 * One provider a virtual key may use, with the models and keys it may use there. A key with none may use every
 * configured provider; with some, only those. Its own budgets and rate limit hang off it (`provider_config_id`).
 */
@Entity({ name: 'virtual_key_provider_configs' })
@Index('uq_virtual_key_provider_configs_virtual_key_id_provider', ['virtual_key_id', 'provider'], { unique: true })
export class VirtualKeyProviderConfigEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'pk_virtual_key_provider_configs' })
  id: string;

  @Column({ name: 'virtual_key_id', type: 'uuid' })
  virtual_key_id: string;

  @ManyToOne(() => VirtualKeyEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'virtual_key_id', foreignKeyConstraintName: 'fk_virtual_key_provider_configs_virtual_key_id' })
  virtual_key?: VirtualKeyEntity;

  @Column({ type: 'varchar', length: 64 })
  provider: ProviderId;

  /** Null: never picked by weighted selection, still usable when the request names the provider. */
  @Column({ type: 'double precision', nullable: true })
  weight: number | null;

  /** `["*"]` every model, `[]` none. */
  @Column({ name: 'allowed_models', type: 'jsonb', default: () => `'["*"]'` })
  allowed_models: string[];

  @Column({ name: 'blacklisted_models', type: 'jsonb', default: () => "'[]'" })
  blacklisted_models: string[];

  /** `["*"]` every key of the provider, `[]` none, else those provider key ids. */
  @Column({ name: 'key_ids', type: 'jsonb', default: () => `'["*"]'` })
  key_ids: string[];

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  created_at: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updated_at: Date;
}
