import { createHash } from 'node:crypto';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import { Agent, type Dispatcher } from 'undici';
import { GatewayConfig } from '../config/gateway-config.js';
import { GatewayException } from '../errors/gateway.exception.js';
import { addressRefusal, bareHost } from './address-policy.js';
import type { Cancellation } from './cancellation.js';

/** TLS options of one upstream, with secrets already resolved to PEM text. */
export interface AgentTlsSettings {
  insecure_skip_verify?: boolean;
  ca_cert_pem?: string;
  client_cert_pem?: string;
  client_key_pem?: string;
}

export interface OutboundRequestOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  tls?: AgentTlsSettings | null;
  /** Deadline for connecting, and again for the response headers once the request is sent (default 30 s each). */
  timeoutMs?: number;
  /** Longest silence while the body streams (default 300 s; 0 disables it, e.g. for SSE with its own keep-alives). */
  bodyTimeoutMs?: number;
  /** Refuse a response whose Content-Length is larger; read the body with `readBodyCapped` to enforce it. */
  maxBytes?: number;
  /** The caller's cancellation (client disconnect). Its abort error is rethrown as is. */
  signal?: AbortSignal | Cancellation;
}

export interface OutboundResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Dispatcher.ResponseData['body'];
}

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_BODY_TIMEOUT_MS = 300_000;
const MAX_CACHED_AGENTS = 64;
/** Parsed URLs kept (provider endpoints, agent URLs, webhooks); beyond this the cache starts over. */
const MAX_CACHED_TARGETS = 2048;

/** What a request needs of its URL. */
interface ParsedTarget {
  origin: string;
  path: string;
  protocol: string;
  /** Without IPv6 brackets. */
  host: string;
  ipLiteral: boolean;
}

/** A resolved address refused by the policy, raised from inside DNS lookup so rebinding cannot slip through. */
export class OutboundAddressRefusedError extends Error {
  constructor(
    readonly host: string,
    readonly why: string,
  ) {
    super(`Outbound request to ${host} refused: ${why}`);
    this.name = 'OutboundAddressRefusedError';
  }
}

function refused(host: string, why: string): GatewayException {
  return new GatewayException(502, 'upstream_error', `Outbound request to ${host} refused: ${why}`, {
    reason: 'provider_connection_failed',
  });
}

function timedOut(host: string, ms: number): GatewayException {
  return new GatewayException(504, 'upstream_timeout', `Outbound request to ${host} timed out after ${ms} ms`, {
    reason: 'provider_timeout',
  });
}

const TLS_CODES = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'CERT_HAS_EXPIRED',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_SIGNATURE_FAILURE',
]);

/** Walks `cause` chains (undici wraps socket errors). */
function findInChain<T>(err: unknown, pick: (e: unknown) => T | undefined): T | undefined {
  let current: unknown = err;
  for (let depth = 0; current && depth < 5; depth++) {
    const hit = pick(current);
    if (hit !== undefined) return hit;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Maps a transport failure to the GatewayException the callers document (502 refused/failed, 504 timeout). */
export function toOutboundException(err: unknown, host: string, timeoutMs: number): GatewayException {
  if (err instanceof GatewayException) return err;
  const refusal = findInChain(err, (e) => (e instanceof OutboundAddressRefusedError ? e : undefined));
  if (refusal) return refused(host, refusal.why);
  const code = findInChain(err, (e) => {
    const c = (e as { code?: unknown }).code;
    return typeof c === 'string' ? c : undefined;
  });
  if (code === 'UND_ERR_BODY_TIMEOUT') {
    return new GatewayException(504, 'upstream_timeout', `Response body from ${host} stalled past the read timeout`, {
      reason: 'provider_timeout',
    });
  }
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') return timedOut(host, timeoutMs);
  let detail = code ?? (err instanceof Error ? err.message : 'unknown error');
  if (code && TLS_CODES.has(code)) detail = `TLS certificate verification failed (${code})`;
  else if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') detail = `host not found (${code})`;
  else if (code === 'ECONNREFUSED') detail = 'connection refused (ECONNREFUSED)';
  return new GatewayException(502, 'upstream_error', `Outbound request to ${host} failed: ${detail}`, {
    reason: 'provider_connection_failed',
    cause: err,
  });
}

/**
 * The one HTTP client for requests leaving the gateway (agent cards, upstream agents, OAuth token endpoints, MCP
 * servers, webhooks). Redirects are never followed; every address a host resolves to is checked against the
 * outbound policy inside the socket's DNS lookup, so a name cannot be rebound to a forbidden address between a
 * check and the connect.
 */
@Injectable()
export class OutboundHttpService implements OnModuleDestroy {
  private readonly agents = new Map<string, Agent>();
  private readonly targets = new Map<string, ParsedTarget>();

  constructor(private readonly config: GatewayConfig) {}

  async request(url: string, options: OutboundRequestOptions = {}): Promise<OutboundResponse> {
    const target = this.targetOf(url);
    const { host } = target;
    if (target.protocol !== 'http:' && target.protocol !== 'https:') {
      throw refused(host, `scheme ${target.protocol} is not http or https`);
    }
    // Node skips the lookup function for IP literals, so those are checked here (every time: the policy is config).
    if (target.ipLiteral) {
      const why = addressRefusal(host, this.config.outbound);
      if (why) throw refused(host, why);
    }
    if (options.signal?.aborted) throw options.signal.reason;

    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    // The deadline is undici's own: the connect timeout of the pool (one pool per timeout) and the headers timeout,
    // which starts when the request is written. No timer or second AbortController of ours per request: on the
    // inference path those cost more than the proxied call. The caller's signal goes to undici as it is.
    const caller = options.signal;
    try {
      const response = await this.agentFor(options.tls ?? null, timeoutMs).request({
        origin: target.origin,
        path: target.path,
        method: options.method ?? 'GET',
        headers: options.headers,
        body: options.body,
        signal: caller,
        headersTimeout: timeoutMs,
        bodyTimeout: options.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS,
      });
      const length = Number(response.headers['content-length']);
      if (options.maxBytes !== undefined && Number.isFinite(length) && length > options.maxBytes) {
        response.body.destroy();
        throw new GatewayException(
          502,
          'upstream_error',
          `Response from ${host} is too large (${length} bytes, limit ${options.maxBytes})`,
          { reason: 'provider_server_error' },
        );
      }
      return { status: response.statusCode, headers: response.headers, body: response.body };
    } catch (err) {
      if (caller?.aborted) throw caller.reason ?? err;
      throw toOutboundException(err, host, timeoutMs);
    }
  }

  /**
   * The parts of a URL a request needs, kept per URL string: an upstream's few URLs are parsed once, not on every
   * request (WHATWG URL parsing and its getters cost more than the rest of building the call).
   */
  private targetOf(url: string): ParsedTarget {
    let target = this.targets.get(url);
    if (target) return target;
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new GatewayException(502, 'upstream_error', 'Outbound request URL is not a valid absolute URL', {
        reason: 'provider_connection_failed',
      });
    }
    const host = bareHost(parsed.hostname);
    target = {
      origin: parsed.origin,
      path: `${parsed.pathname}${parsed.search}`,
      protocol: parsed.protocol,
      host,
      ipLiteral: isIP(host) !== 0,
    };
    if (this.targets.size >= MAX_CACHED_TARGETS) this.targets.clear();
    this.targets.set(url, target);
    return target;
  }

  async onModuleDestroy(): Promise<void> {
    const agents = [...this.agents.values()];
    this.agents.clear();
    await Promise.all(agents.map((a) => a.close().catch(() => undefined)));
  }

  /**
   * One connection pool per distinct TLS configuration (keyed by a hash, so PEMs are not kept as map keys) and connect
   * timeout (few distinct values: the defaults and each provider's configured timeout).
   */
  private agentFor(tls: AgentTlsSettings | null, connectTimeoutMs: number): Agent {
    const tlsKey = tls
      ? createHash('sha256')
          .update(
            JSON.stringify([
              tls.insecure_skip_verify ?? false,
              tls.ca_cert_pem ?? '',
              tls.client_cert_pem ?? '',
              tls.client_key_pem ?? '',
            ]),
          )
          .digest('hex')
      : 'default';
    const key = `${tlsKey}/${connectTimeoutMs}`;
    const cached = this.agents.get(key);
    if (cached) return cached;
    if (this.agents.size >= MAX_CACHED_AGENTS) {
      const [oldestKey, oldest] = this.agents.entries().next().value as [string, Agent];
      this.agents.delete(oldestKey);
      void oldest.close().catch(() => undefined);
    }
    const agent = new Agent({
      connect: {
        lookup: this.lookup,
        timeout: connectTimeoutMs,
        ...(tls?.ca_cert_pem ? { ca: tls.ca_cert_pem } : {}),
        ...(tls?.client_cert_pem ? { cert: tls.client_cert_pem } : {}),
        ...(tls?.client_key_pem ? { key: tls.client_key_pem } : {}),
        rejectUnauthorized: !tls?.insecure_skip_verify,
      },
    });
    this.agents.set(key, agent);
    return agent;
  }

  /** DNS lookup that refuses the connection when ANY resolved address is outside the policy. */
  private readonly lookup: LookupFunction = (hostname, options, callback) => {
    dnsLookup(hostname, { family: options.family, hints: options.hints, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const list: LookupAddress[] = addresses;
      for (const a of list) {
        const why = addressRefusal(a.address, this.config.outbound);
        if (why) return callback(new OutboundAddressRefusedError(hostname, why), '', 0);
      }
      const first = list[0];
      if (!first) return callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), '', 0);
      if (options.all) (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
      else callback(null, first.address, first.family);
    });
  };
}

/**
 * Reads a response body into memory, destroying the stream as soon as it passes `maxBytes` (a hostile upstream
 * cannot make the gateway buffer more than the cap). Events rather than an async iterator: one fewer promise per
 * chunk on the inference path.
 */
export function readBodyCapped(
  body: Dispatcher.ResponseData['body'],
  maxBytes: number,
  host = 'upstream',
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const onData = (chunk: Buffer) => {
      total += chunk.length;
      if (total > maxBytes) {
        body.off('data', onData);
        body.destroy();
        reject(
          new GatewayException(
            502,
            'upstream_error',
            `Response body from ${host} is larger than the ${maxBytes} byte limit`,
            {
              reason: 'provider_server_error',
            },
          ),
        );
        return;
      }
      chunks.push(chunk);
    };
    body.on('data', onData);
    body.once('end', () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total)));
    body.once('error', (err) => reject(err instanceof GatewayException ? err : toOutboundException(err, host, 0)));
  });
}
