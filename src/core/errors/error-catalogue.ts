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
  408: 'invalid_request_error',
  409: 'conflict',
  413: 'payload_too_large',
  414: 'invalid_request_error',
  415: 'invalid_request_error',
  429: 'rate_limit_error',
  431: 'invalid_request_error',
  500: 'internal_error',
  502: 'upstream_error',
  503: 'service_unavailable',
  504: 'upstream_timeout',
};

/**
 * Every `error.code` the gateway sends, with the HTTP status it goes with. Typed: GatewayException takes only these,
 * so a new code is added here (and to docs/errors.md, which a test checks) before it can be thrown.
 */
export const ERROR_CODES = {
  bad_request: 400,
  validation_failed: 400,
  invalid_json: 400,
  invalid_content_length: 400,
  invalid_url: 400,
  invalid_jsonrpc_request: 400,
  task_id_mismatch: 400,
  unsupported_operation: 400,
  model_unknown: 400,
  model_not_available: 400,
  missing_credentials: 401,
  invalid_credentials: 401,
  setup_token_required: 401,
  virtual_key_not_accepted: 401,
  budget_exceeded: 402,
  permission_denied: 403,
  setup_token_invalid: 403,
  virtual_key_blocked: 403,
  model_blocked: 403,
  tool_blocked: 403,
  dashboard_auth_disabled: 403,
  route_not_found: 404,
  enterprise_only: 404,
  jsonrpc_method_not_found: 404,
  agent_not_found: 404,
  agent_operation_not_found: 404,
  push_config_not_found: 404,
  role_not_found: 404,
  user_not_found: 404,
  management_key_not_found: 404,
  virtual_key_not_found: 404,
  team_not_found: 404,
  customer_not_found: 404,
  budget_not_found: 404,
  model_config_not_found: 404,
  provider_governance_not_found: 404,
  provider_not_found: 404,
  provider_key_not_found: 404,
  log_not_found: 404,
  routing_rule_not_found: 404,
  pricing_override_not_found: 404,
  circuit_breaker_policy_not_found: 404,
  circuit_not_found: 404,
  mcp_client_not_found: 404,
  method_not_allowed: 405,
  request_timeout: 408,
  already_exists: 409,
  in_use: 409,
  config_managed: 409,
  payload_too_large: 413,
  uri_too_long: 414,
  unsupported_media_type: 415,
  request_limited: 429,
  token_limited: 429,
  login_throttled: 429,
  request_header_fields_too_large: 431,
  internal_error: 500,
  upstream_error: 502,
  provider_error: 502,
  secret_unresolved: 502,
  service_unavailable: 503,
  gateway_limits_unavailable: 503,
  circuit_open: 503,
  upstream_timeout: 504,
  mcp_tool_log_expired: 504,
} as const satisfies Record<string, number>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** `<resource>` of the `<resource>_not_found` codes. */
export type NotFoundResource = ErrorCode extends infer C ? (C extends `${infer R}_not_found` ? R : never) : never;

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
  'circuit_open',
  'gateway_dropped',
  'gateway_internal',
] as const;
export type ErrorReason = (typeof ERROR_REASONS)[number];
