import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';
import { CacheFactory } from '../../../core/cache/cache.factory.js';
import type { InvalidatedCache } from '../../../core/cache/invalidated-cache.js';
import { LOGGER } from '../../../core/logging/logging.module.js';
import { InvalidationBus } from '../../../core/redis/invalidation.bus.js';
import { GovernancePolicies, type GovernanceSnapshot } from '../limits/governed-levels.js';
import { BudgetEntity } from '../objects/entities/budget.entity.js';
import { CustomerEntity } from '../objects/entities/customer.entity.js';
import { ModelConfigEntity } from '../objects/entities/model-config.entity.js';
import { ProviderGovernanceEntity } from '../objects/entities/provider-governance.entity.js';
import { RateLimitEntity } from '../objects/entities/rate-limit.entity.js';
import { TeamCustomerEntity } from '../objects/entities/team-customer.entity.js';
import { TeamEntity } from '../objects/entities/team.entity.js';
import { VirtualKeyProviderConfigEntity } from '../virtual-keys/entities/virtual-key-provider-config.entity.js';
import { VirtualKeyEntity } from '../virtual-keys/entities/virtual-key.entity.js';
import { BuiltGovernanceSnapshot } from './governance-snapshot.js';

/** Invalidation topic of every governance object change (one message drops the snapshot on every replica). */
export const GOVERNANCE_POLICIES_TOPIC = 'governance.policies';
const SNAPSHOT_KEY = 'snapshot';

/**
 * The GovernancePolicies the request path reads: one snapshot of every virtual key policy, team, customer, budget,
 * rate limit, provider governance and model config, built from the database. Every committed change calls
 * `invalidate()`, which drops it here synchronously and on every replica through the invalidation bus (Redis pub/sub
 * in scale-out, so within milliseconds); the next `snapshot()` rebuilds it once, however many requests wait. After
 * 60 s without a change it is rebuilt in the background (the safety net should a message be lost) while the previous
 * one keeps answering; an override ending also triggers a rebuild.
 */
@Injectable()
export class GovernancePoliciesService extends GovernancePolicies implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly cache: InvalidatedCache<BuiltGovernanceSnapshot>;
  private previous: BuiltGovernanceSnapshot | undefined;
  private changes = 0;
  private refreshing: Promise<BuiltGovernanceSnapshot | null> | undefined;
  /** Set on shutdown: a first build cut short by it is not worth a warning. */
  private closing = false;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(LOGGER) private readonly logger: Logger,
    caches: CacheFactory,
    bus: InvalidationBus,
  ) {
    super();
    this.cache = caches.create<BuiltGovernanceSnapshot>({
      topic: GOVERNANCE_POLICIES_TOPIC,
      ttlMs: 60_000,
      negativeTtlMs: 0,
      maxEntries: 1,
    });
    bus.subscribe(GOVERNANCE_POLICIES_TOPIC, () => {
      this.changes++;
      this.previous = undefined;
    });
  }

  snapshot(): GovernanceSnapshot | Promise<GovernanceSnapshot> {
    const built = this.cache.get(SNAPSHOT_KEY);
    if (built && built.validUntil > Date.now()) return built;
    if (built) {
      // An override ended: the limits changed without a write. Every replica reaches the same time and does the same.
      void this.cache.invalidate();
    }
    const rebuild = this.cache.getOrLoad(SNAPSHOT_KEY, () => this.build()) as Promise<BuiltGovernanceSnapshot>;
    if (!this.previous) return rebuild;
    if (this.refreshing !== rebuild) {
      this.refreshing = rebuild;
      rebuild.catch((err: unknown) =>
        this.logger.warn(
          { err: (err as Error).message },
          'governance snapshot refresh failed; serving the previous one',
        ),
      );
    }
    return this.previous;
  }

  /** After a committed change: drops the snapshot here (synchronously) and on every other replica. */
  invalidate(): Promise<void> {
    return this.cache.invalidate();
  }

  onApplicationBootstrap(): void {
    void Promise.resolve(this.snapshot()).catch((err: unknown) => {
      if (!this.closing)
        this.logger.warn({ err: (err as Error).message }, 'governance snapshot could not be built at start');
    });
  }

  onModuleDestroy(): void {
    this.closing = true;
  }

  private async build(): Promise<BuiltGovernanceSnapshot> {
    const changes = this.changes;
    const m = this.dataSource.manager;
    // One statement at a time: PGlite is a single connection.
    const virtualKeys = await m.find(VirtualKeyEntity, {
      select: { id: true, name: true, team_id: true, customer_id: true },
    });
    const providerConfigs = await m.find(VirtualKeyProviderConfigEntity);
    const teams = await m.find(TeamEntity, { select: { id: true, name: true } });
    const customers = await m.find(CustomerEntity, { select: { id: true, name: true } });
    const links = await m.find(TeamCustomerEntity, { select: { team_id: true, customer_id: true } });
    const budgets = await m.find(BudgetEntity);
    const rateLimits = await m.find(RateLimitEntity);
    const providers = await m.find(ProviderGovernanceEntity);
    const modelConfigs = await m.find(ModelConfigEntity, { order: { created_at: 'ASC', id: 'ASC' } });
    const snapshot = new BuiltGovernanceSnapshot({
      virtualKeys,
      providerConfigs,
      teams,
      customers,
      links,
      budgets,
      rateLimits,
      providers,
      modelConfigs,
    });
    if (changes === this.changes) this.previous = snapshot;
    return snapshot;
  }
}
