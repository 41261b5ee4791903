import { Column, CreateDateColumn, Entity, Index, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import type { ProviderId } from '../../../inference/index.js';

export const RULE_SCOPES = ['global', 'team', 'customer', 'virtual_key'] as const;
export type RuleScope = (typeof RULE_SCOPES)[number];

/** One target of a rule: the provider, model and key it routes to, picked by weight. */
export interface RoutingTarget {
  provider?: ProviderId;
  model?: string;
  key_id?: string;
  weight: number;
}

/**
 * A routing rule: when its CEL expression holds for a request, the request goes to one of its targets (by weight),
 * with its fallbacks. `scope_id` is '' for global rules, so the name stays unique per scope and scope id.
 */
@Entity({ name: 'routing_rules' })
@Index('uq_routing_rules_scope_name', ['scope', 'scope_id', 'name'], { unique: true })
export class RoutingRuleEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'pk_routing_rules' })
  id: string;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'text', default: '' })
  description: string;

  @Column({ type: 'boolean', default: true })
  enabled: boolean;

  @Column({ name: 'cel_expression', type: 'text' })
  cel_expression: string;

  @Column({ type: 'jsonb' })
  targets: RoutingTarget[];

  /** `provider` or `provider/model`. */
  @Column({ type: 'jsonb' })
  fallbacks: string[];

  @Column({ type: 'varchar', length: 32 })
  scope: RuleScope;

  @Column({ name: 'scope_id', type: 'varchar', length: 255, default: '' })
  scope_id: string;

  @Column({ type: 'integer', default: 0 })
  priority: number;

  @Column({ name: 'chain_rule', type: 'boolean', default: false })
  chain_rule: boolean;

  /** The dashboard's rule-builder tree, kept as sent. */
  @Column({ type: 'jsonb', nullable: true })
  query: Record<string, unknown> | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  created_at: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updated_at: Date;
}
