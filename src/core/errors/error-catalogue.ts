/**
 * The `type` of a GatewayError for each status, and the normalized `extra_fields.error_type` reasons.
 * The catalogue is extended, never repurposed (docs/errors.md lists every code).
 */
export const ERROR_TYPE_BY_STATUS: Readonly<Record<number, string>> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'budget_exceeded',
  403: 'permission_error',
  404: 'not_found',
  405: 'invalid_request_error',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'invalid_request_error',
  429: 'rate_limit_error',
  500: 'internal_error',
  502: 'upstream_error',
  503: 'service_unavailable',
  504: 'upstream_timeout',
};

export function errorTypeForStatus(status: number): string {
  return ERROR_TYPE_BY_STATUS[status] ?? (status >= 500 ? 'internal_error' : 'invalid_request_error');
}

export const ERROR_REASONS = [
  'caller_invalid_request',
  'caller_model_unknown',
  'caller_model_not_available',
  'caller_cancelled',
  'policy_access_denied',
  'policy_model_blocked',
  'policy_provider_blocked',
  'policy_budget_exceeded',
  'policy_rate_limited',
  'policy_tool_blocked',
  'provider_auth_failed',
  'provider_billing',
  'provider_rate_limited',
  'provider_overloaded',
  'provider_server_error',
  'provider_timeout',
  'provider_connection_failed',
  'provider_credentials_exhausted',
  'gateway_dropped',
  'gateway_internal',
] as const;
export type ErrorReason = (typeof ERROR_REASONS)[number];
