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
import type { ProviderId } from '../../providers/provider-ids.js';
import type { StoredSecret } from '../../../../core/secrets/secret-value.js';
import type { StoredAzureKeyConfig, StoredBedrockKeyConfig, StoredVertexKeyConfig } from '../catalog-records.js';
import type { KeyAlias } from '../provider-snapshot.js';
import { ProviderEntity } from './provider.entity.js';

/** A key of a provider configured through the API. Secrets are sealed SecretValues (ciphertext or reference). */
@Entity({ name: 'provider_keys' })
@Index('uq_provider_keys_provider_name', ['provider', 'name'], { unique: true })
export class ProviderKeyEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'pk_provider_keys' })
  id: string;

  @Column({ type: 'varchar', length: 64 })
  provider: ProviderId;

  @ManyToOne(() => ProviderEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'provider', foreignKeyConstraintName: 'fk_provider_keys_provider' })
  provider_row?: ProviderEntity;

  /** Unique per provider; what `routing_info.key` shows. */
  @Column({ type: 'varchar', length: 255 })
  name: string;

  /** Null for keys that need none (self-hosted providers, Bedrock with access keys, Vertex service accounts). */
  @Column({ type: 'jsonb', nullable: true })
  value: StoredSecret | null;

  @Column({ type: 'double precision', default: 1 })
  weight: number;

  @Column({ type: 'jsonb', default: () => `'["*"]'` })
  models: string[];

  @Column({ name: 'blacklisted_models', type: 'jsonb', default: () => "'[]'" })
  blacklisted_models: string[];

  @Column({ type: 'jsonb', default: () => "'{}'" })
  aliases: Record<string, KeyAlias>;

  @Column({ type: 'boolean', default: true })
  enabled: boolean;

  @Column({ name: 'azure_key_config', type: 'jsonb', nullable: true })
  azure_key_config: StoredAzureKeyConfig | null;

  @Column({ name: 'bedrock_key_config', type: 'jsonb', nullable: true })
  bedrock_key_config: StoredBedrockKeyConfig | null;

  @Column({ name: 'vertex_key_config', type: 'jsonb', nullable: true })
  vertex_key_config: StoredVertexKeyConfig | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  created_at: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updated_at: Date;
}
