import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { CacheFactory } from '../../../core/cache/cache.factory.js';
import { LOGGER } from '../../../core/logging/logging.module.js';
import { InvalidationBus } from '../../../core/redis/invalidation.bus.js';
import { SnapshotHolder } from '../../../core/cache/snapshot-holder.js';
import { PricingOverrideEntity } from './entities/pricing-override.entity.js';
import { PRICING_SCOPE_KINDS, SCOPE_IDS, type PricingPatch, type PricingScopeKind } from './pricing-scopes.js';

export const PRICING_OVERRIDES_TOPIC = 'governance.pricing-overrides';

/** The request a price is looked up for. */
export interface PricedRequest {
  provider: string;
  /** Unknown before a key is picked (a cost estimate): key-scoped overrides then do not match. */
  providerKeyId?: string;
  virtualKeyId?: string;
  /** None on the data plane yet: user scopes never match until requests carry a user. */
  userId?: string;
  /** The model sent to the provider (the alias's `model_id` when an alias matched, else the caller's). */
  model: string;
  /** `chat_completion`, `embedding`, … */
  requestType: string;
}

export interface AppliedOverride {
  id: string;
  name: string;
  patch: PricingPatch;
}

interface Candidate {
  id: string;
  name: string;
  exact: boolean;
  /** The pattern without its `*` for wildcards. */
  pattern: string;
  requestTypes: ReadonlySet<string>;
  patch: PricingPatch;
  createdAt: number;
}

/** The stored overrides by scope key (`provider|openai`, `virtual_key|<id>`, …), each list best match first. */
export class PricingOverrideSet {
  constructor(private readonly byScope: ReadonlyMap<string, readonly Candidate[]>) {}

  get size(): number {
    return this.byScope.size;
  }

  /** The override of the most specific scope that matches; within a scope exact, then the longest prefix, wins. */
  find(request: PricedRequest): AppliedOverride | undefined {
    if (this.byScope.size === 0) return undefined;
    const ids = {
      virtual_key_id: request.virtualKeyId,
      user_id: request.userId,
      provider_id: request.provider,
      provider_key_id: request.providerKeyId,
    };
    for (const kind of PRICING_SCOPE_KINDS) {
      const needed = SCOPE_IDS[kind];
      if (needed.some((field) => !ids[field])) continue;
      const candidates = this.byScope.get(
        scopeKey(
          kind,
          needed.map((field) => ids[field]!),
        ),
      );
      if (!candidates) continue;
      for (const c of candidates) {
        if (!c.requestTypes.has(request.requestType)) continue;
        if (c.exact ? c.pattern === request.model : request.model.startsWith(c.pattern)) {
          return { id: c.id, name: c.name, patch: c.patch };
        }
      }
    }
    return undefined;
  }

  static of(rows: readonly PricingOverrideEntity[]): PricingOverrideSet {
    const byScope = new Map<string, Candidate[]>();
    for (const row of rows) {
      const key = scopeKey(
        row.scope_kind,
        SCOPE_IDS[row.scope_kind].map((field) => row[field] ?? ''),
      );
      const list = byScope.get(key) ?? [];
      const exact = row.match_type === 'exact';
      list.push({
        id: row.id,
        name: row.name,
        exact,
        pattern: exact ? row.pattern : row.pattern.slice(0, -1),
        requestTypes: new Set(row.request_types),
        patch: row.pricing_patch,
        createdAt: row.created_at.getTime(),
      });
      byScope.set(key, list);
    }
    for (const list of byScope.values()) {
      list.sort(
        (a, b) => Number(b.exact) - Number(a.exact) || b.pattern.length - a.pattern.length || b.createdAt - a.createdAt,
      );
    }
    return new PricingOverrideSet(byScope);
  }
}

function scopeKey(kind: PricingScopeKind, ids: readonly string[]): string {
  return [kind, ...ids].join('|');
}

/**
 * Pricing overrides as the request path reads them: an in-memory snapshot rebuilt on change through the invalidation
 * bus (never the database per request). Await `snapshot()` once per request, then `find` is synchronous.
 */
@Injectable()
export class PricingOverrides implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly holder: SnapshotHolder<PricingOverrideSet>;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(LOGGER) logger: Logger,
    caches: CacheFactory,
    bus: InvalidationBus,
  ) {
    this.holder = new SnapshotHolder(
      PRICING_OVERRIDES_TOPIC,
      async () => PricingOverrideSet.of(await this.dataSource.getRepository(PricingOverrideEntity).find()),
      logger,
      caches,
      bus,
    );
  }

  onApplicationBootstrap(): void {
    this.holder.warm();
  }

  onModuleDestroy(): void {
    this.holder.close();
  }

  snapshot(): PricingOverrideSet | Promise<PricingOverrideSet> {
    return this.holder.get();
  }

  invalidate(): Promise<void> {
    return this.holder.invalidate();
  }
}
