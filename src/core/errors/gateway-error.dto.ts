import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { PROVIDER_ID_REF, RoutingInfoDto } from './routing-info.dto.js';
import { UsageDto } from './usage.dto.js';

/** "any" in the contract: the decorators cannot emit an untyped schema, so list every JSON type. */
const ANY_JSON = {
  anyOf: [
    { type: 'object', additionalProperties: true },
    { type: 'array', items: {} },
    { type: 'string' },
    { type: 'number' },
    { type: 'boolean' },
  ],
};

@ApiSchema({ name: 'ErrorField' })
export class ErrorFieldDto {
  @ApiProperty({ description: 'Error type, e.g. invalid_request_error', example: 'invalid_request_error' })
  type: string;

  @ApiProperty({ description: 'Machine-readable error code', example: 'validation_failed' })
  code: string;

  @ApiProperty({ description: 'Human-readable message' })
  message: string;

  @ApiPropertyOptional({ description: 'The request field at fault (dotted path for nested fields)' })
  param?: string;

  @ApiProperty({ description: 'Same as the top-level event_id', format: 'uuid' })
  event_id: string;
}

/** Set when a per-user MCP tool needs the caller to complete an inline auth flow. */
@ApiSchema({ name: 'McpAuthRequired' })
export class McpAuthRequiredDto {
  @ApiPropertyOptional({ description: 'Kind of auth flow' }) kind?: string;
  @ApiPropertyOptional({ description: 'MCP client that needs the auth' }) mcp_client_id?: string;
  @ApiPropertyOptional({ description: 'Name of that MCP client' }) mcp_client_name?: string;
  @ApiPropertyOptional({ description: 'What the caller has to do' }) message?: string;
  @ApiPropertyOptional({ description: 'Where the caller completes the flow', format: 'uri' }) authorize_url?: string;
  @ApiPropertyOptional({ description: 'Session the flow resumes' }) session_id?: string;
}

/** All optional (gateway-api.md, ErrorExtraFields); a field is present only when it applies. */
@ApiSchema({ name: 'ErrorExtraFields' })
export class ErrorExtraFieldsDto {
  @ApiPropertyOptional({ type: () => RoutingInfoDto, description: 'Routing info of the attempt' })
  routing_info?: RoutingInfoDto;

  @ApiPropertyOptional({
    ...PROVIDER_ID_REF,
    deprecated: true,
    description: 'Deprecated: use routing_info.provider',
  })
  provider?: string;

  @ApiPropertyOptional({
    deprecated: true,
    description:
      'Deprecated: use routing_info.primary_model when routing_info.is_fallback is true, otherwise routing_info.model; the caller’s model is routing_info.requested_model',
  })
  original_model_requested?: string;

  @ApiPropertyOptional({
    deprecated: true,
    description:
      'Deprecated: use routing_info.resolved_key_alias.model_id when an alias matched, otherwise routing_info.model',
  })
  resolved_model_used?: string;

  @ApiPropertyOptional({ description: 'Inference request type' })
  request_type?: string;

  @ApiPropertyOptional({ description: 'MCP operation, for MCP errors' })
  mcp_request_type?: string;

  @ApiPropertyOptional({ description: 'Agent Gateway operation, for A2A errors' })
  a2a_request_type?: string;

  @ApiPropertyOptional({ description: 'Agent name, for A2A errors' })
  a2a_agent_name?: string;

  @ApiPropertyOptional({
    description:
      'Normalized reason, prefixed by fault domain (caller_, policy_, provider_, gateway_); absent when not classified at source',
  })
  error_type?: string;

  @ApiPropertyOptional({
    description: 'Provider retry hint in milliseconds, clamped to 1000..300000; absent when the provider gave none',
    type: 'integer',
    format: 'int64',
    minimum: 1000,
    maximum: 300000,
  })
  retry_after_ms?: number;

  @ApiPropertyOptional({ ...ANY_JSON, description: 'Raw provider request, when raw request capture is enabled' })
  raw_request?: unknown;

  @ApiPropertyOptional({ ...ANY_JSON, description: 'Raw provider response, when raw response capture is enabled' })
  raw_response?: unknown;

  @ApiPropertyOptional({ description: 'Request type the request was converted to for the provider' })
  converted_request_type?: string;

  @ApiPropertyOptional({ type: [String], description: 'Parameters a compatibility plugin dropped' })
  dropped_compat_plugin_params?: string[];

  @ApiPropertyOptional({ description: 'Milliseconds', type: 'integer', format: 'int64' })
  latency?: number;

  @ApiPropertyOptional({
    type: () => KeyStatusDto,
    isArray: true,
    description: 'Per-key results for requests that ran on every key, such as listing models',
  })
  key_statuses?: KeyStatusDto[];

  @ApiPropertyOptional({
    type: () => McpAuthRequiredDto,
    description: 'Set when a per-user MCP tool needs the caller to complete an inline auth flow',
  })
  mcp_auth_required?: McpAuthRequiredDto;

  @ApiPropertyOptional({
    type: () => UsageDto,
    description: 'Usage the provider reported and billed although the request failed',
  })
  billed_usage?: UsageDto;
}

/** Body of every error response. */
@ApiSchema({ name: 'GatewayError' })
export class GatewayErrorDto {
  @ApiProperty({ description: 'UUID of this error, also in the log line', format: 'uuid' })
  event_id: string;

  @ApiProperty({ description: 'Error type (same as error.type)' })
  type: string;

  @ApiProperty({ description: 'True when the gateway decided the error, false when relaying a provider error' })
  is_gateway_error: boolean;

  @ApiProperty({ description: 'Equals the HTTP status', type: 'integer' })
  status_code: number;

  @ApiProperty({ type: () => ErrorFieldDto })
  error: ErrorFieldDto;

  @ApiProperty({ type: () => ErrorExtraFieldsDto })
  extra_fields: ErrorExtraFieldsDto;
}

/**
 * One key's result inside `key_statuses`. Declared after GatewayErrorDto because it nests one: decorator metadata
 * reads the property's class when this class is defined.
 */
@ApiSchema({ name: 'KeyStatus' })
export class KeyStatusDto {
  @ApiProperty({ description: 'ID of the key' })
  key_id: string;

  @ApiProperty({ enum: ['success', 'list_models_failed'], description: 'Result on this key' })
  status: 'success' | 'list_models_failed';

  @ApiProperty({ ...PROVIDER_ID_REF, description: 'Provider of the key' })
  provider: string;

  @ApiPropertyOptional({ type: () => GatewayErrorDto, description: 'The error on this key, when it failed' })
  error?: GatewayErrorDto;
}
