import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import type { ProviderId } from '../../inference/index.js';

export const SIGNAL_SOURCES = ['response_header'] as const;
export const CONDITION_OPERATORS = ['OR', 'AND'] as const;

/** One signal: a response header of the primary, matched exactly, as a substring, or by its presence alone. */
export interface CircuitSignal {
  source: (typeof SIGNAL_SOURCES)[number];
  header_name: string;
  /** Exact match, case-insensitive. */
  header_value?: string;
  /** Substring match, case-insensitive. Never together with `header_value`. */
  header_contains?: string;
}

export interface CircuitCondition {
  operator: (typeof CONDITION_OPERATORS)[number];
  signals: CircuitSignal[];
}

/**
 * A circuit breaker policy (gateway-api.md "Circuit breaker policy"): while its circuit is open, requests for the
 * primary provider/model go to the fallback. The name is the key of its main circuit.
 */
@Entity({ name: 'circuit_breaker_policies' })
export class CircuitBreakerPolicyEntity {
  @PrimaryColumn({ type: 'varchar', length: 255, primaryKeyConstraintName: 'pk_circuit_breaker_policies' })
  name: string;

  @Column({ name: 'primary_provider', type: 'varchar', length: 64 })
  primary_provider: ProviderId;

  @Column({ name: 'primary_model', type: 'varchar', length: 512 })
  primary_model: string;

  @Column({ name: 'fallback_provider', type: 'varchar', length: 64 })
  fallback_provider: ProviderId;

  @Column({ name: 'fallback_model', type: 'varchar', length: 512 })
  fallback_model: string;

  @Column({ type: 'jsonb' })
  condition: CircuitCondition;

  @Column({ type: 'boolean', default: true })
  enabled: boolean;

  /** Keys of the primary provider with sub-circuits of their own; empty: the policy watches the provider as a whole. */
  @Column({ name: 'primary_key_ids', type: 'jsonb', default: () => "'[]'" })
  primary_key_ids: string[];

  /** A Go duration string, kept as written (`30s`, `1m30s`). */
  @Column({ name: 'default_cooldown', type: 'varchar', length: 64, default: '30s' })
  default_cooldown: string;

  /** A response header whose value (milliseconds) overrides the cooldown when present and valid. */
  @Column({ name: 'cooldown_header', type: 'varchar', length: 255, nullable: true })
  cooldown_header: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  created_at: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updated_at: Date;
}
