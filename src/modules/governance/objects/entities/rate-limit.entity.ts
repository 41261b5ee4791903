import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { VirtualKeyProviderConfigEntity } from '../../virtual-keys/entities/virtual-key-provider-config.entity.js';
import { VirtualKeyEntity } from '../../virtual-keys/entities/virtual-key.entity.js';
import { CustomerEntity } from './customer.entity.js';
import { ModelConfigEntity } from './model-config.entity.js';
import { ProviderGovernanceEntity } from './provider-governance.entity.js';
import { TeamEntity } from './team.entity.js';
import { ONE_OWNER_CHECK, OwnedLimitColumns } from './owner-columns.js';

/** bigint columns come back as strings. */
const NUMBER = {
  to: (v: number | null) => v,
  from: (v: string | null) => (v === null ? null : Number(v)),
};

/**
 * Request and token limits, each over its own window; at most one per owner (the unique indexes). Usage lives in the
 * CounterStore under `rl-requests:<id>` and `rl-tokens:<id>`.
 */
@Entity({ name: 'rate_limits' })
@Check('ck_rate_limits_one_owner', ONE_OWNER_CHECK)
@Index('uq_rate_limits_virtual_key_id', ['virtual_key_id'], { unique: true })
@Index('uq_rate_limits_team_id', ['team_id'], { unique: true })
@Index('uq_rate_limits_customer_id', ['customer_id'], { unique: true })
@Index('uq_rate_limits_provider_config_id', ['provider_config_id'], { unique: true })
@Index('uq_rate_limits_model_config_id', ['model_config_id'], { unique: true })
@Index('uq_rate_limits_provider', ['provider'], { unique: true })
export class RateLimitEntity extends OwnedLimitColumns {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'pk_rate_limits' })
  id: string;

  @Column({ name: 'request_max_limit', type: 'bigint', nullable: true, transformer: NUMBER })
  request_max_limit: number | null;

  @Column({ name: 'request_reset_duration', type: 'varchar', length: 16, nullable: true })
  request_reset_duration: string | null;

  @Column({ name: 'token_max_limit', type: 'bigint', nullable: true, transformer: NUMBER })
  token_max_limit: number | null;

  @Column({ name: 'token_reset_duration', type: 'varchar', length: 16, nullable: true })
  token_reset_duration: string | null;

  @ManyToOne(() => VirtualKeyEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'virtual_key_id', foreignKeyConstraintName: 'fk_rate_limits_virtual_key_id' })
  virtual_key?: VirtualKeyEntity;

  @ManyToOne(() => TeamEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'team_id', foreignKeyConstraintName: 'fk_rate_limits_team_id' })
  team?: TeamEntity;

  @ManyToOne(() => CustomerEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'customer_id', foreignKeyConstraintName: 'fk_rate_limits_customer_id' })
  customer?: CustomerEntity;

  @ManyToOne(() => VirtualKeyProviderConfigEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'provider_config_id', foreignKeyConstraintName: 'fk_rate_limits_provider_config_id' })
  provider_config?: VirtualKeyProviderConfigEntity;

  @ManyToOne(() => ModelConfigEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'model_config_id', foreignKeyConstraintName: 'fk_rate_limits_model_config_id' })
  model_config?: ModelConfigEntity;

  @ManyToOne(() => ProviderGovernanceEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'provider', foreignKeyConstraintName: 'fk_rate_limits_provider' })
  provider_governance?: ProviderGovernanceEntity;
}
