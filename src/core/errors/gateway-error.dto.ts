import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

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

export class ErrorExtraFieldsDto {
  @ApiPropertyOptional({
    description: 'Normalized reason, prefixed by fault domain (caller_, policy_, provider_, gateway_)',
  })
  error_type?: string;

  @ApiPropertyOptional({ description: 'Agent Gateway operation, for A2A errors' })
  a2a_request_type?: string;

  @ApiPropertyOptional({ description: 'Agent name, for A2A errors' })
  a2a_agent_name?: string;

  @ApiPropertyOptional({ description: 'MCP operation, for MCP errors' })
  mcp_request_type?: string;

  @ApiPropertyOptional({ description: 'Inference request type' })
  request_type?: string;

  @ApiPropertyOptional({ description: 'Routing info of the attempt', type: 'object', additionalProperties: true })
  routing_info?: Record<string, unknown>;

  @ApiPropertyOptional({
    description: 'Provider retry hint in milliseconds, clamped to 1000..300000',
    type: 'integer',
    format: 'int64',
  })
  retry_after_ms?: number;

  @ApiPropertyOptional({ description: 'Milliseconds', type: 'integer', format: 'int64' })
  latency?: number;
}

/** Body of every error response. */
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
