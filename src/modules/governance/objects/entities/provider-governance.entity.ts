import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import type { ProviderId } from '../../../inference/index.js';

/** Budgets and a rate limit over everything sent to one provider (`/api/governance/providers/{provider}`). */
@Entity({ name: 'provider_governance' })
export class ProviderGovernanceEntity {
  @PrimaryColumn({ type: 'varchar', length: 64, primaryKeyConstraintName: 'pk_provider_governance' })
  provider: ProviderId;

  /** Default alignment of budgets that do not set their own. */
  @Column({ name: 'calendar_aligned', type: 'boolean', default: false })
  calendar_aligned: boolean;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  created_at: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updated_at: Date;
}
