import { Column, CreateDateColumn, Entity, Index, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import type { ProviderId } from '../../../inference/index.js';

export const MODEL_CONFIG_SCOPES = ['global', 'virtual_key', 'user'] as const;
export type ModelConfigScope = (typeof MODEL_CONFIG_SCOPES)[number];

/** Budgets and a rate limit over one model (or `*`), optionally on one provider, globally or for one key or user. */
@Entity({ name: 'model_configs' })
@Index('ix_model_configs_model_name', ['model_name'])
export class ModelConfigEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'pk_model_configs' })
  id: string;

  /** `*`: every model. */
  @Column({ name: 'model_name', type: 'varchar', length: 255 })
  model_name: string;

  @Column({ type: 'varchar', length: 64, nullable: true })
  provider: ProviderId | null;

  @Column({ type: 'varchar', length: 16 })
  scope: ModelConfigScope;

  /** The virtual key or user of a scoped config; null for `global`. Immutable. */
  @Column({ name: 'scope_id', type: 'uuid', nullable: true })
  scope_id: string | null;

  @Column({ name: 'calendar_aligned', type: 'boolean', default: false })
  calendar_aligned: boolean;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  created_at: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updated_at: Date;
}
