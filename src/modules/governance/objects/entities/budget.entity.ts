import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { VirtualKeyProviderConfigEntity } from '../../virtual-keys/entities/virtual-key-provider-config.entity.js';
import { VirtualKeyEntity } from '../../virtual-keys/entities/virtual-key.entity.js';
import { CustomerEntity } from './customer.entity.js';
import { ModelConfigEntity } from './model-config.entity.js';
import { ProviderGovernanceEntity } from './provider-governance.entity.js';
import { TeamEntity } from './team.entity.js';
import { ONE_OWNER_CHECK, OwnedLimitColumns } from './owner-columns.js';

export type OverrideMode = 'cycles' | 'forever';

/**
 * A spending cap in USD over a reset window. Usage is not stored here: it lives in the CounterStore under
 * `budget:<id>`, where the request path charges it. Owned by exactly one of a virtual key, a team, a customer, a
 * key's provider config, a model config or a provider (foreign keys cascade, so an owner takes its budgets along).
 */
@Entity({ name: 'budgets' })
@Check('ck_budgets_one_owner', ONE_OWNER_CHECK)
@Index('ix_budgets_virtual_key_id', ['virtual_key_id'])
@Index('ix_budgets_team_id', ['team_id'])
@Index('ix_budgets_customer_id', ['customer_id'])
@Index('ix_budgets_provider_config_id', ['provider_config_id'])
@Index('ix_budgets_model_config_id', ['model_config_id'])
@Index('ix_budgets_provider', ['provider'])
export class BudgetEntity extends OwnedLimitColumns {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'pk_budgets' })
  id: string;

  @Column({ name: 'max_limit', type: 'double precision' })
  max_limit: number;

  /** As written (`1h`, `1d`, `1M`, `1Q`). */
  @Column({ name: 'reset_duration', type: 'varchar', length: 16 })
  reset_duration: string;

  @Column({ name: 'calendar_aligned', type: 'boolean', default: false })
  calendar_aligned: boolean;

  /** When the usage was last reset by hand (creation, `reset_usage`); windows reset on their own. */
  @Column({ name: 'last_reset', type: 'timestamptz' })
  last_reset: Date;

  /** A temporary raise of the limit: `max_limit + override_amount` while it lasts. */
  @Column({ name: 'override_amount', type: 'double precision', nullable: true })
  override_amount: number | null;

  @Column({ name: 'override_mode', type: 'varchar', length: 16, nullable: true })
  override_mode: OverrideMode | null;

  @Column({ name: 'override_cycles', type: 'integer', nullable: true })
  override_cycles: number | null;

  /** When a `cycles` override ends (fixed when it is set, so every replica agrees); null: never. */
  @Column({ name: 'override_expires_at', type: 'timestamptz', nullable: true })
  override_expires_at: Date | null;

  @ManyToOne(() => VirtualKeyEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'virtual_key_id', foreignKeyConstraintName: 'fk_budgets_virtual_key_id' })
  virtual_key?: VirtualKeyEntity;

  @ManyToOne(() => TeamEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'team_id', foreignKeyConstraintName: 'fk_budgets_team_id' })
  team?: TeamEntity;

  @ManyToOne(() => CustomerEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'customer_id', foreignKeyConstraintName: 'fk_budgets_customer_id' })
  customer?: CustomerEntity;

  @ManyToOne(() => VirtualKeyProviderConfigEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'provider_config_id', foreignKeyConstraintName: 'fk_budgets_provider_config_id' })
  provider_config?: VirtualKeyProviderConfigEntity;

  @ManyToOne(() => ModelConfigEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'model_config_id', foreignKeyConstraintName: 'fk_budgets_model_config_id' })
  model_config?: ModelConfigEntity;

  @ManyToOne(() => ProviderGovernanceEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'provider', foreignKeyConstraintName: 'fk_budgets_provider' })
  provider_governance?: ProviderGovernanceEntity;
}
