import { Injectable } from '@nestjs/common';
import { GatewayConfig } from '../../../core/config/gateway-config.js';
import type { ProviderId } from '../providers/provider-ids.js';
import { GovernanceEnforcer, type Admission } from '../../governance/index.js';
import type { InferenceCall } from './inference-call.js';
import { isPending } from '../../../core/async/maybe-promise.js';

/**
 * Governance of an answer a plugin gave (a cache hit), which never reaches the router: the virtual key must be allowed
 * the answer's provider and model (403 as the router would answer), and with `plugins.cache_hits_count_requests` the
 * hit counts as one request in the request rate limits covering it (429 when they are spent). Budgets and token
 * limits are never charged: a hit costs nothing and used no tokens. The request's completion settles the admission
 * (completion/settlement.ts `settleAnswered`).
 */
@Injectable()
export class AnsweredRequestLimits {
  private readonly countRequests: boolean;

  constructor(
    private readonly governance: GovernanceEnforcer,
    config: GatewayConfig,
  ) {
    this.countRequests = config.plugins.cache_hits_count_requests;
  }

  /** The counted request's admission (its `x-ratelimit-*` headers), when one was counted. */
  async admit(call: InferenceCall, provider: string, model: string): Promise<Admission | undefined> {
    if (!call.virtualKey) return undefined;
    const begun = this.governance.begin(call.virtualKey.id);
    const governed = isPending(begun) ? await begun : begun;
    if (!governed) return undefined;
    const config = governed.access(provider as ProviderId, model);
    if (!this.countRequests) return undefined;
    const levels = governed
      .levels(config, provider as ProviderId, model)
      .filter((level) => level.rateLimit !== undefined)
      .map((level) => ({ ...level, budgets: [] }));
    return governed.admit(levels, () => ({ costUsd: 0, tokens: 0 }));
  }
}
