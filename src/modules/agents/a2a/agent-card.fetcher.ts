import { Injectable } from '@nestjs/common';
import type { ErrorReason } from '../../../core/errors/error-catalogue.js';
import { GatewayException } from '../../../core/errors/gateway.exception.js';
import { OutboundHttpService, readBodyCapped } from '../../../core/outbound/outbound-http.service.js';
import type { StoredUpstreamAuth } from '../entities/agent.entity.js';
import { AgentCardInvalidError, validateAgentCard, type ValidatedCard } from './agent-card.validator.js';
import { AgentUpstreamAuth } from './agent-upstream-auth.js';
import { resolveUpstreamTls } from '../../../core/outbound/upstream-tls.js';
import { SecretsService } from '../../../core/secrets/secrets.service.js';

export const CARD_TIMEOUT_MS = 10_000;
export const CARD_MAX_BYTES = 1024 * 1024;

/**
 * The card could not be fetched or is not a usable A2A v1 card. Registration answers 400 (`param: agent_card_url`)
 * with the message; the data plane answers 502.
 */
export class AgentCardFetchError extends Error {
  constructor(
    message: string,
    readonly reason: ErrorReason,
  ) {
    super(message);
    this.name = 'AgentCardFetchError';
  }
}

/**
 * GETs an Agent Card the way A2A v1 expects (`A2A-Version: 1.0`, discovery auth and TLS), never following
 * redirects (they would carry the discovery credential elsewhere), within 10 s and 1 MiB, and validates it.
 */
@Injectable()
export class AgentCardFetcher {
  constructor(
    private readonly outbound: OutboundHttpService,
    private readonly auth: AgentUpstreamAuth,
    private readonly secrets: SecretsService,
  ) {}

  async fetch(
    url: string,
    discoveryAuth: StoredUpstreamAuth | null | undefined,
    cacheKey: string,
  ): Promise<ValidatedCard> {
    let text: string;
    let cacheControl: string | undefined;
    try {
      const authHeaders = await this.auth.headersForAuth(discoveryAuth, cacheKey);
      const tls = await resolveUpstreamTls(this.secrets, discoveryAuth?.tls);
      const res = await this.outbound.request(url, {
        headers: { accept: 'application/json', ...authHeaders, 'a2a-version': '1.0' },
        tls,
        timeoutMs: CARD_TIMEOUT_MS,
        bodyTimeoutMs: CARD_TIMEOUT_MS,
        maxBytes: CARD_MAX_BYTES,
      });
      if (res.status >= 300 && res.status < 400) {
        await res.body.dump().catch(() => undefined);
        const location = typeof res.headers.location === 'string' ? ` to ${res.headers.location}` : '';
        throw new AgentCardFetchError(
          `the Agent Card URL answered with a redirect (status ${res.status}${location}); redirects are not followed, register the final URL`,
          'provider_server_error',
        );
      }
      if (res.status !== 200) {
        await res.body.dump().catch(() => undefined);
        throw new AgentCardFetchError(
          `the Agent Card URL answered with status ${res.status} (200 is required)`,
          res.status === 401 || res.status === 403 ? 'provider_auth_failed' : 'provider_server_error',
        );
      }
      text = (await readBodyCapped(res.body, CARD_MAX_BYTES, new URL(url).host)).toString('utf8');
      const header = res.headers['cache-control'];
      if (typeof header === 'string' && header.trim()) cacheControl = header.trim();
    } catch (err) {
      if (err instanceof AgentCardFetchError) throw err;
      if (err instanceof GatewayException) {
        const tooLarge = /larger than|too large/.test(err.message);
        throw new AgentCardFetchError(
          tooLarge
            ? `the Agent Card is too large (limit ${CARD_MAX_BYTES} bytes)`
            : `the Agent Card could not be fetched: ${err.message}`,
          err.reason ?? 'provider_connection_failed',
        );
      }
      throw err;
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new AgentCardFetchError('the Agent Card response is not valid JSON', 'provider_server_error');
    }
    try {
      return { ...validateAgentCard(json), ...(cacheControl ? { cacheControl } : {}) };
    } catch (err) {
      if (err instanceof AgentCardInvalidError) {
        throw new AgentCardFetchError(
          `the Agent Card is not a valid A2A v1 card: ${err.message}`,
          'provider_server_error',
        );
      }
      throw err;
    }
  }
}
