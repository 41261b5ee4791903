import { Injectable } from '@nestjs/common';
import { GatewayConfig } from '../../../core/config/gateway-config.js';
import type { ProviderId } from '../../../core/errors/routing-info.dto.js';
import { GovernanceEnforcer } from '../../governance/limits/governance-enforcer.js';
import type { InferenceCall } from './inference-call.js';

/**
 * Governance of an answer a plugin gave (a cache hit), which never reaches the router: the virtual key must be allowed
 * the answer's provider and model (403 as the router would answer), and with `plugins.cache_hits_count_requests` the
 * hit counts as one request in the request rate limits covering it (429 when they are spent). Budgets and token
 * limits are never charged: a hit costs nothing and used no tokens.
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

  /** The `x-ratelimit-*` headers of the counted request, when one was counted. */
  async admit(call: InferenceCall, provider: string, model: string): Promise<Record<string, string> | undefined> {
    if (!call.virtualKey) return undefined;
    const begun = this.governance.begin(call.virtualKey.id);
    const governed = begun instanceof Promise ? await begun : begun;
    if (!governed) return undefined;
    const config = governed.access(provider as ProviderId, model);
    if (!this.countRequests) return undefined;
    const levels = governed
      .levels(config, provider as ProviderId, model)
      .filter((level) => level.rateLimit !== undefined)
      .map((level) => ({ ...level, budgets: [] }));
    const admission = await governed.admit(levels, () => ({ costUsd: 0, tokens: 0 }));
    admission?.commit({ costUsd: 0, tokens: 0 });
    return admission?.headers;
  }
}
