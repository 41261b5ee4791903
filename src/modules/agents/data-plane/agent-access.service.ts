import { Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { AuthenticatedVirtualKey } from '../../../core/auth/principal.js';
import { parseDuration } from '../../../core/config/duration.js';
import { GatewayConfig } from '../../../core/config/gateway-config.js';
import { GatewayException } from '../../../core/errors/gateway.exception.js';
import type { AgentTlsSettings } from '../../../core/outbound/outbound-http.service.js';
import { AgentCardService, type UpstreamCard } from '../a2a/agent-card.service.js';
import { AgentUpstreamAuth } from '../a2a/agent-upstream-auth.js';
import { AgentsService } from '../agents.service.js';
import type { AgentEntity } from '../entities/agent.entity.js';
import { toErrorResponse } from '../../../core/errors/error-response.js';
import { AgentHistoryService } from '../history/agent-history.service.js';
import { rewriteAgentCard } from './card-rewriter.js';
import { buildUpstreamHeaders } from './upstream-headers.js';

export interface AuthorizedCall {
  agent: AgentEntity;
  virtualKey: AuthenticatedVirtualKey;
}

export interface UpstreamContext {
  upstream: UpstreamCard;
  tls: AgentTlsSettings | null;
  headers: Record<string, string>;
}

/** Who may call an agent, and how the gateway talks to it. */
@Injectable()
export class AgentAccessService {
  constructor(
    private readonly config: GatewayConfig,
    private readonly agents: AgentsService,
    private readonly cards: AgentCardService,
    private readonly auth: AgentUpstreamAuth,
    private readonly history: AgentHistoryService,
  ) {}

  /** The longest silence of a relayed stream's body (`agents.stream_stall_timeout`; 0: none). */
  streamStallMs(): number {
    return parseDuration(this.config.agents.stream_stall_timeout) ?? 0;
  }

  /**
   * 401 without a virtual key, 404 for an unknown or disabled agent, 403 when the key is neither granted nor
   * admitted by `allow_by_default`. Failures carry the A2A extra fields; refusals of a known key are recorded in
   * history (a key-less request has no caller to record).
   */
  async authorize(
    request: FastifyRequest,
    name: string,
    requestType: string | undefined,
    binding: string | null = null,
  ): Promise<AuthorizedCall> {
    const started = performance.now();
    const virtualKey = request.principal?.virtualKey;
    try {
      if (!virtualKey) {
        throw GatewayException.unauthorized(
          'missing_credentials',
          'A virtual key is required (Authorization: Bearer, x-api-key or x-gateway-vk)',
        );
      }
      const agent = await this.agents.getForDataPlane(name);
      if (!agent.allow_by_default && !agent.virtual_key_ids.includes(virtualKey.id)) {
        throw GatewayException.forbidden(
          'permission_denied',
          `Virtual key ${virtualKey.name} may not access agent ${name}`,
        );
      }
      return { agent, virtualKey };
    } catch (err) {
      // A refusal of a known key is an operation of history; a call naming no A2A operation is not.
      if (virtualKey && requestType !== undefined) {
        const view = toErrorResponse(err, request.errorFields);
        this.history.record({
          agent_name: name,
          operation: requestType,
          protocol_binding: binding,
          virtual_key_id: virtualKey.id,
          status: 'error',
          status_code: view.status,
          latency_ms: performance.now() - started,
          error: { ...view.body },
        });
      }
      throw err;
    }
  }

  upstreamCard(agent: AgentEntity, refresh = false): Promise<UpstreamCard> {
    return this.cards.getUpstreamCard(agent, { refresh });
  }

  /**
   * The card as the gateway serves it: the upstream's public card, or `card` (an extended card the upstream
   * returned), rewritten to point at the gateway.
   */
  async servedCard(request: FastifyRequest, agent: AgentEntity, card?: unknown): Promise<Record<string, unknown>> {
    return (await this.servedCardWithUpstream(request, agent, card)).card;
  }

  /** The served card and the upstream card it was made from (its caching headers). */
  async servedCardWithUpstream(
    request: FastifyRequest,
    agent: AgentEntity,
    card?: unknown,
  ): Promise<{ card: Record<string, unknown>; upstream: UpstreamCard }> {
    const upstream = await this.cards.getUpstreamCard(agent);
    const source =
      card && typeof card === 'object' && !Array.isArray(card) ? (card as Record<string, unknown>) : upstream.card;
    const served = rewriteAgentCard({
      card: source,
      agentBaseUrl: this.agentBaseUrl(request, agent.name),
      hasJsonRpc: Boolean(upstream.jsonrpc),
      hasRest: Boolean(upstream.rest),
      extensionUris: agent.extension_uris,
    });
    return { card: served, upstream };
  }

  /** Refreshes the cached card in the background (after a 404/405 from the upstream); never replays the call. */
  refreshCardLater(agent: AgentEntity): void {
    void this.cards.getUpstreamCard(agent, { refresh: true }).catch(() => undefined);
  }

  /** The public base URL: `public_base_url`, else the scheme and host the request came in on. */
  baseUrl(request: FastifyRequest): string {
    if (this.config.public_base_url) return this.config.public_base_url.replace(/\/+$/, '');
    return `${request.protocol}://${request.host}`;
  }

  agentBaseUrl(request: FastifyRequest, name: string): string {
    return `${this.baseUrl(request)}/agents/a2a/${encodeURIComponent(name)}`;
  }

  /** Card, TLS options and headers for one upstream call. */
  async context(request: FastifyRequest, call: AuthorizedCall, contentType?: string): Promise<UpstreamContext> {
    const { agent, virtualKey } = call;
    const upstream = await this.cards.getUpstreamCard(agent);
    const overrides = agent.forward_accepted_credential && agent.forward_accepted_credential_overrides_auth;
    const [runtimeAuth, tls] = await Promise.all([
      overrides ? Promise.resolve({}) : this.auth.headersFor(agent, 'runtime'),
      this.auth.tlsFor(agent, 'runtime'),
    ]);
    const caps = upstream.card.capabilities as { extensions?: Array<{ uri?: unknown }> } | undefined;
    const declared = new Set(
      (caps?.extensions ?? []).map((e) => e.uri).filter((u): u is string => typeof u === 'string'),
    );
    const allowedExtensions = new Set(agent.extension_uris.filter((uri) => declared.has(uri)));
    const headers = buildUpstreamHeaders({
      incoming: request.headers,
      requestId: request.id,
      contentType,
      runtimeAuth,
      forwardedCredential: agent.forward_accepted_credential ? virtualKey.presented_value : undefined,
      forwardOverridesAuth: agent.forward_accepted_credential_overrides_auth,
      allowedExtensions,
    });
    return { upstream, tls, headers };
  }
}
