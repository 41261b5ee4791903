import type { FastifyRequest } from 'fastify';
import { GatewayException } from '../../../core/errors/gateway.exception.js';
import type { OutboundHttpService, OutboundResponse } from '../../../core/outbound/outbound-http.service.js';
import type { UpstreamInterface } from '../a2a/agent-card.validator.js';
import type { PushRelayService } from '../push/push-relay.service.js';
import type { AgentAccessService, AuthorizedCall } from './agent-access.service.js';

/** Blocking SendMessage waits for the task to finish: allow the upstream time before its response headers. */
export const UNARY_TIMEOUT_MS = 120_000;
export const STREAM_CONNECT_TIMEOUT_MS = 30_000;
export const MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

export interface UpstreamCallDeps {
  access: AgentAccessService;
  outbound: OutboundHttpService;
  push: PushRelayService;
}

export interface UpstreamCallSpec {
  /** The card interface that serves the call. */
  binding: 'jsonrpc' | 'rest';
  /** Content type of the body sent upstream (none for body-less REST calls). */
  contentType: string | undefined;
  streaming: boolean;
  /** `accept` of a unary call (a streamed one asks for `text/event-stream`). */
  accept: string;
  /** The request for the upstream's interface (its URL and tenant). */
  build(iface: UpstreamInterface): { url: string; method: string; body: string | undefined };
}

export interface UpstreamCall {
  response: OutboundResponse;
  /** Cancels the upstream call (client disconnect, shutdown). */
  abort: AbortController;
  contentType: string;
  /** A streamed call answered with SSE: relay it event by event. */
  eventStream: boolean;
}

const BINDING_LABEL = { jsonrpc: 'JSON-RPC', rest: 'HTTP+JSON' } as const;

/** Opens the upstream call of either binding; the push config stored for it is dropped when the call fails. */
export async function openUpstreamCall(
  deps: UpstreamCallDeps,
  request: FastifyRequest,
  call: AuthorizedCall,
  pushRowId: string | undefined,
  spec: UpstreamCallSpec,
): Promise<UpstreamCall> {
  const abort = new AbortController();
  let response: OutboundResponse;
  try {
    const ctx = await deps.access.context(request, call, spec.contentType);
    const iface = ctx.upstream[spec.binding];
    if (!iface) {
      const label = BINDING_LABEL[spec.binding];
      throw new GatewayException(400, 'unsupported_operation', `Agent ${call.agent.name} has no ${label} interface`, {
        reason: 'caller_invalid_request',
      });
    }
    const outgoing = spec.build(iface);
    response = await deps.outbound.request(outgoing.url, {
      method: outgoing.method,
      headers: { ...ctx.headers, accept: spec.streaming ? 'text/event-stream' : spec.accept },
      body: outgoing.body,
      tls: ctx.tls,
      timeoutMs: spec.streaming ? STREAM_CONNECT_TIMEOUT_MS : UNARY_TIMEOUT_MS,
      // A stream's silence ends it only past `agents.stream_stall_timeout` (0: never), as a 504 event.
      bodyTimeoutMs: spec.streaming ? deps.access.streamStallMs() : undefined,
      signal: abort.signal,
    });
    if (response.status === 401 || response.status === 403) {
      // The agent refused the gateway's own credential: a gateway-side misconfiguration the caller cannot fix, and
      // relaying the agent's 401 would read as a refused virtual key.
      await response.body.dump().catch(() => undefined);
      throw new GatewayException(
        502,
        'upstream_error',
        `Agent ${call.agent.name} refused the gateway's upstream credentials (HTTP ${response.status})`,
        { reason: 'provider_auth_failed' },
      );
    }
  } catch (err) {
    await deps.push.discard(pushRowId).catch(() => undefined);
    throw err;
  }
  const contentType = String(response.headers['content-type'] ?? '');
  const eventStream = spec.streaming && response.status < 300 && contentType.includes('text/event-stream');
  return { response, abort, contentType, eventStream };
}
