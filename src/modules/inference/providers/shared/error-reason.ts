import type { ErrorReason } from '../../../../core/errors/error-catalogue.js';

/**
 * `extra_fields.error_type` of a provider's HTTP failure by status (bifrost.md §2 precedence: an adapter that knows
 * better, e.g. from the provider's own error type, overrides this).
 */
export function reasonForProviderStatus(status: number): ErrorReason {
  if (status === 401 || status === 403) return 'provider_auth_failed';
  if (status === 402) return 'provider_billing';
  if (status === 429) return 'provider_rate_limited';
  if (status === 503 || status === 529) return 'provider_overloaded';
  if (status === 504 || status === 408) return 'provider_timeout';
  if (status === 404) return 'caller_model_unknown';
  if (status >= 500) return 'provider_server_error';
  return 'caller_invalid_request';
}
