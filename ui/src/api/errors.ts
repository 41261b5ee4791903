import type { components } from './openapi';

type GatewayErrorBody = components['schemas']['GatewayError'];

/**
 * What a failed API call tells the user: every GatewayError's message as the API wrote it, its code, the field at
 * fault (`param`, on a 400) and, on a 429, how long to wait. Network failures are status 0.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly param?: string,
    readonly retryAfterSeconds?: number,
    readonly eventId?: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** The credentials are gone (expired or revoked session, lost setup session): sign in again. */
  get sessionEnded(): boolean {
    return this.status === 401;
  }
}

function isGatewayError(body: unknown): body is GatewayErrorBody {
  const error = (body as { error?: { message?: unknown; code?: unknown } } | null)?.error;
  return typeof error?.message === 'string' && typeof error.code === 'string';
}

/** `Retry-After` as seconds (delta seconds or an HTTP date), or undefined. */
export function retryAfterSeconds(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim());
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

/** The ApiError of a non-2xx answer; a body that is not a GatewayError (a proxy's page) still gets a message. */
export function apiErrorOf(status: number, body: unknown, headers: Pick<Headers, 'get'>): ApiError {
  const retry = retryAfterSeconds(headers.get('retry-after'));
  if (isGatewayError(body)) {
    const { code, message, param, event_id } = body.error;
    return new ApiError(status, code, message, param, retry, event_id);
  }
  return new ApiError(
    status,
    `http_${status}`,
    `The gateway answered ${status} without an error body`,
    undefined,
    retry,
  );
}

/** A fetch that never got an answer (the gateway is down, or the network broke). */
export function networkError(cause: unknown): ApiError {
  const detail = cause instanceof Error && cause.message ? ` (${cause.message})` : '';
  return new ApiError(0, 'network_error', `The gateway could not be reached${detail}`);
}

/** How an error reads on screen: the API's message, with what the user can do for the statuses that need it. */
export function describeError(error: unknown): { title: string; message: string } {
  if (!(error instanceof ApiError)) {
    return { title: 'Something went wrong', message: error instanceof Error ? error.message : String(error) };
  }
  switch (error.status) {
    case 0:
      return { title: 'No answer from the gateway', message: error.message };
    case 403:
      return { title: error.code === 'permission_denied' ? 'Not permitted' : 'Refused', message: error.message };
    case 404:
      return { title: 'Not found', message: error.message };
    case 429:
      return { title: 'Too many requests', message: error.message };
    default:
      return { title: error.status >= 500 ? 'The gateway failed' : 'Refused', message: error.message };
  }
}
