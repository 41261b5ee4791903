import { errorTypeForStatus } from '../../../../core/errors/error-catalogue.js';
import { GatewayException } from '../../../../core/errors/gateway.exception.js';
import type { ProviderError } from './provider-adapter.js';
import { clampRetryAfterMs } from './retry-hint.js';

/**
 * A provider's error relayed as a GatewayError: `is_gateway_error: false`, the provider's status (a 502 when it sent
 * none usable), its message, type and code kept; the retry hint as `extra_fields.retry_after_ms` (clamped) and
 * `Retry-After`, and what it billed as `billed_usage`.
 */
export function providerException(
  error: ProviderError,
  context: { extraFields?: Record<string, unknown>; headers?: Record<string, string> } = {},
): GatewayException {
  const status = error.status >= 400 && error.status <= 599 ? error.status : 502;
  const extra: Record<string, unknown> = { ...context.extraFields };
  const headers: Record<string, string> = { ...context.headers };
  if (error.retryAfterMs !== undefined) {
    extra.retry_after_ms = clampRetryAfterMs(error.retryAfterMs);
    headers['retry-after'] = String(Math.ceil(error.retryAfterMs / 1000));
  }
  if (error.billedUsage) extra.billed_usage = error.billedUsage;
  return new GatewayException(status, 'provider_error', error.message || `The provider answered ${status}`, {
    type: error.type ?? errorTypeForStatus(status),
    wireCode: error.code,
    param: error.param,
    reason: error.reason,
    isGatewayError: false,
    extraFields: extra,
    headers,
  });
}
