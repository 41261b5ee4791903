import { Injectable } from '@nestjs/common';
import { GatewayException } from '../../../core/errors/gateway.exception.js';
import type { AgentEntity } from '../entities/agent.entity.js';
import { AgentCardFetchError, AgentCardFetcher } from './agent-card.fetcher.js';
import type { UpstreamInterface, ValidatedCard } from './agent-card.validator.js';

export type { UpstreamInterface } from './agent-card.validator.js';

/** The upstream card as the data plane uses it: first eligible interface of each binding. */
export interface UpstreamCard {
  card: Record<string, unknown>;
  jsonrpc?: UpstreamInterface;
  rest?: UpstreamInterface;
  fetched_at: string;
  /** The upstream's `Cache-Control` for the card, when it sent one. */
  cache_control?: string;
}

export const CARD_CACHE_TTL_MS = 5 * 60_000;

interface CacheEntry {
  /** The registration version the card was fetched for: a PUT on any replica changes it. */
  stamp: string;
  expires: number;
  value: Promise<UpstreamCard>;
}

export function toUpstreamCard(validated: ValidatedCard, fetchedAt = new Date()): UpstreamCard {
  const jsonrpc = validated.interfaces.find((i) => i.protocolBinding === 'JSONRPC');
  const rest = validated.interfaces.find((i) => i.protocolBinding === 'HTTP+JSON');
  return {
    card: validated.card,
    ...(jsonrpc ? { jsonrpc } : {}),
    ...(rest ? { rest } : {}),
    fetched_at: fetchedAt.toISOString(),
    ...(validated.cacheControl ? { cache_control: validated.cacheControl } : {}),
  };
}

/** Upstream cards for the data plane, cached in memory per agent for 5 minutes; concurrent misses share one fetch. */
@Injectable()
export class AgentCardService {
  private readonly cache = new Map<string, CacheEntry>();

  constructor(private readonly fetcher: AgentCardFetcher) {}

  async getUpstreamCard(agent: AgentEntity, options: { refresh?: boolean } = {}): Promise<UpstreamCard> {
    const stamp = `${agent.updated_at.getTime()}|${agent.agent_card_url}`;
    const hit = this.cache.get(agent.name);
    if (!options.refresh && hit && hit.stamp === stamp && hit.expires > Date.now()) return hit.value;
    const entry: CacheEntry = { stamp, expires: Date.now() + CARD_CACHE_TTL_MS, value: this.load(agent) };
    this.cache.set(agent.name, entry);
    // Failures are not cached: the next call tries again.
    entry.value.catch(() => {
      if (this.cache.get(agent.name) === entry) this.cache.delete(agent.name);
    });
    return entry.value;
  }

  /** Seeds the cache with the card validated at registration (saves the first data-plane fetch). */
  remember(agent: AgentEntity, validated: ValidatedCard): void {
    const stamp = `${agent.updated_at.getTime()}|${agent.agent_card_url}`;
    this.cache.set(agent.name, {
      stamp,
      expires: Date.now() + CARD_CACHE_TTL_MS,
      value: Promise.resolve(toUpstreamCard(validated)),
    });
  }

  invalidate(agentName: string): void {
    this.cache.delete(agentName);
  }

  private async load(agent: AgentEntity): Promise<UpstreamCard> {
    try {
      return toUpstreamCard(
        await this.fetcher.fetch(agent.agent_card_url, agent.discovery_auth, `${agent.name}:discovery`),
      );
    } catch (err) {
      if (err instanceof AgentCardFetchError) {
        throw new GatewayException(
          502,
          'upstream_error',
          `Agent card of ${agent.name} is unavailable: ${err.message}`,
          {
            reason: err.reason,
          },
        );
      }
      throw err;
    }
  }
}
