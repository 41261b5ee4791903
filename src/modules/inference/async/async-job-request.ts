import type { FastifyRequest } from 'fastify';
import { CREDENTIAL_HEADERS, CREDENTIAL_QUERY_PARAMS } from '../../../core/auth/credential-headers.js';
import { GatewayException } from '../../../core/errors/gateway.exception.js';
import { headerValue } from '../../../core/http/request-header.js';

export const ASYNC_HEADER = 'x-gateway-async';
export const ASYNC_ID_HEADER = 'x-gateway-async-id';
export const ASYNC_TTL_HEADER = 'x-gateway-async-job-result-ttl';
export const ASYNC_WEBHOOK_HEADER = 'x-gateway-async-webhook';

export const MIN_RESULT_TTL_SECONDS = 60;
export const MAX_RESULT_TTL_SECONDS = 7 * 24 * 3600;

/**
 * Headers never stored with a job: credentials (the job runs as its virtual key by id), the async controls themselves
 * (a replay must not submit again), and what the replay sets anew.
 */
const NOT_STORED: ReadonlySet<string> = new Set([
  ...CREDENTIAL_HEADERS,
  ASYNC_HEADER,
  ASYNC_ID_HEADER,
  ASYNC_TTL_HEADER,
  ASYNC_WEBHOOK_HEADER,
  'host',
  'content-length',
  'content-type',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'expect',
  'accept-encoding',
  'x-request-id',
  // SigV4 headers of a Bedrock client: a signature of this request, meaningless on a replay.
  'x-amz-date',
  'x-amz-security-token',
  'x-amz-content-sha256',
]);

/** The request headers a replay needs (routing pins, log metadata, provider betas), without any credential. */
export function storableHeaders(request: FastifyRequest): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined || NOT_STORED.has(name)) continue;
    out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/** The request's path and query without credentials, to replay on a worker. */
export function storablePath(request: FastifyRequest, path: string = request.url.split('?')[0]!): string {
  const query = request.url.includes('?') ? new URLSearchParams(request.url.slice(request.url.indexOf('?') + 1)) : null;
  if (!query) return path;
  for (const name of CREDENTIAL_QUERY_PARAMS) query.delete(name);
  const rest = query.toString();
  return rest ? `${path}?${rest}` : path;
}

/** `x-gateway-async-job-result-ttl`: whole seconds, 60 to 7 days; absent: the configured default. */
export function resultTtlOf(request: FastifyRequest, fallback: number): number {
  const raw = headerValue(request, ASYNC_TTL_HEADER);
  if (raw === undefined) return fallback;
  const seconds = /^\d{1,7}$/.test(raw) ? Number(raw) : NaN;
  if (!(seconds >= MIN_RESULT_TTL_SECONDS && seconds <= MAX_RESULT_TTL_SECONDS)) {
    throw GatewayException.validation(
      ASYNC_TTL_HEADER,
      `${ASYNC_TTL_HEADER} must be whole seconds from ${MIN_RESULT_TTL_SECONDS} to ${MAX_RESULT_TTL_SECONDS} (7 days)`,
    );
  }
  return seconds;
}
