import { Column, CreateDateColumn, Entity, Index, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import type { PricingPatch, PricingScopeKind } from '../pricing-scopes.js';

/**
 * A pricing override: for requests in its scope whose model matches (`exact`, or `wildcard`: a prefix ending `*`)
 * and whose request type it lists, the set fields of `pricing_patch` replace the price table's rates.
 */
@Entity({ name: 'pricing_overrides' })
@Index('idx_pricing_overrides_scope_kind', ['scope_kind'])
export class PricingOverrideEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'pk_pricing_overrides' })
  id: string;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ name: 'scope_kind', type: 'varchar', length: 32 })
  scope_kind: PricingScopeKind;

  @Column({ name: 'virtual_key_id', type: 'varchar', length: 255, nullable: true })
  virtual_key_id: string | null;

  @Column({ name: 'user_id', type: 'varchar', length: 255, nullable: true })
  user_id: string | null;

  @Column({ name: 'provider_id', type: 'varchar', length: 64, nullable: true })
  provider_id: string | null;

  @Column({ name: 'provider_key_id', type: 'varchar', length: 255, nullable: true })
  provider_key_id: string | null;

  @Column({ name: 'match_type', type: 'varchar', length: 16 })
  match_type: 'exact' | 'wildcard';

  @Column({ type: 'varchar', length: 512 })
  pattern: string;

  @Column({ name: 'request_types', type: 'jsonb' })
  request_types: string[];

  /** Only the fields set; each replaces one rate of the price table. */
  @Column({ name: 'pricing_patch', type: 'jsonb' })
  pricing_patch: PricingPatch;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  created_at: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updated_at: Date;
}
