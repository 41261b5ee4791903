import { Column, CreateDateColumn, UpdateDateColumn } from 'typeorm';
import type { ProviderId } from '../../../inference/index.js';

/** The owner columns of budgets and rate limits: exactly one is set (a check constraint says so). */
export const OWNER_COLUMNS = [
  'virtual_key_id',
  'team_id',
  'customer_id',
  'provider_config_id',
  'model_config_id',
  'provider',
] as const;
export type OwnerColumn = (typeof OWNER_COLUMNS)[number];

export const ONE_OWNER_CHECK = `num_nonnulls(${OWNER_COLUMNS.map((c) => `"${c}"`).join(', ')}) = 1`;

/**
 * The owner and timestamp columns budgets and rate limits share. Each entity declares its own relations on them, for
 * foreign keys named after its table.
 */
export abstract class OwnedLimitColumns {
  @Column({ name: 'virtual_key_id', type: 'uuid', nullable: true })
  virtual_key_id: string | null;

  @Column({ name: 'team_id', type: 'uuid', nullable: true })
  team_id: string | null;

  @Column({ name: 'customer_id', type: 'uuid', nullable: true })
  customer_id: string | null;

  @Column({ name: 'provider_config_id', type: 'uuid', nullable: true })
  provider_config_id: string | null;

  @Column({ name: 'model_config_id', type: 'uuid', nullable: true })
  model_config_id: string | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  provider: ProviderId | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  created_at: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updated_at: Date;
}
