import { ApiProperty, ApiPropertyOptional, ApiSchema, getSchemaPath } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsObject,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
  ArrayMaxSize,
} from 'class-validator';
import { PageQueryDto } from '../../../../core/http/paging.dto.js';
import { SecretValueDto, SecretValueProperty } from '../../../../core/secrets/secret-value.decorator.js';
import type { SecretInput } from '../../../../core/secrets/secret-value.js';
import { IsOptionalNonNull, IsStringList } from '../../../../core/validation/field.decorators.js';
import { IntegerQuery } from '../../../../core/validation/integer-query.decorator.js';
import { IsHttpUrl } from '../../../../core/validation/is-http-url.decorator.js';
import { MCP_CLIENT_NAME_PATTERN } from '../../mcp-contract.js';
import { CONNECTION_TYPES, type McpConnectionType } from '../entities/mcp-client.entity.js';

export const MCP_CLIENT_STATES = ['connected', 'disconnected', 'error', 'disabled'] as const;
export type McpClientState = (typeof MCP_CLIENT_STATES)[number];

export const DEFAULT_TOOL_EXECUTION_TIMEOUT_S = 30;
export const MAX_TOOL_EXECUTION_TIMEOUT_S = 3600;

@ApiSchema({ name: 'McpStdioConfig' })
export class StdioConfigDto {
  @ApiProperty({
    type: String,
    maxLength: 1024,
    description: 'Executable spawned (looked up in PATH).',
    example: 'npx',
  })
  @IsString()
  @IsNotEmpty()
  @MaxLength(1024)
  command: string;

  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'string', maxLength: 4096 },
    maxItems: 100,
    description: 'Arguments.',
  })
  @IsOptionalNonNull()
  @IsStringList({ maxItems: 100, maxLength: 4096, nonEmpty: false })
  args?: string[];

  @SecretValueProperty({
    description: 'Environment of the child (name to SecretValue), added to a minimal safe environment.',
    map: true,
    required: false,
    nonEmpty: false,
    example: { API_TOKEN: 'env.MY_TOKEN' },
  })
  @IsOptionalNonNull()
  envs?: Record<string, SecretInput>;
}

@ApiSchema({ name: 'McpVirtualKeyConfig' })
export class VkConfigDto {
  @ApiProperty({ type: String, maxLength: 64, description: 'An existing virtual key ID.' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  virtual_key_id: string;

  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'string' },
    description: 'Narrows the client\'s `tools_to_execute` for this key (`["*"]` all of them, `[]` none).',
  })
  @IsOptionalNonNull()
  @IsStringList({ maxItems: 1000, maxLength: 128 })
  tools_to_execute?: string[];
}

/** Fields shared by create and update. */
export class McpClientFieldsDto {
  @ApiPropertyOptional({
    type: String,
    maxLength: 2048,
    description: 'Server URL for `http` (Streamable HTTP) and `sse` (HTTP+SSE); checked against the outbound policy.',
    example: 'https://mcp.example.com/mcp',
  })
  @IsOptionalNonNull()
  @IsHttpUrl()
  connection_string?: string;

  @ApiPropertyOptional({ type: StdioConfigDto, description: 'How to spawn the server, for `stdio` only.' })
  @IsOptionalNonNull()
  @IsObject()
  @ValidateNested()
  @Type(() => StdioConfigDto)
  stdio_config?: StdioConfigDto;

  @SecretValueProperty({
    description: 'HTTP headers sent to the server (name to SecretValue; `http` and `sse`). Redacted in responses.',
    map: true,
    required: false,
    nonEmpty: false,
    example: { Authorization: 'env.MCP_TOKEN' },
  })
  @IsOptionalNonNull()
  headers?: Record<string, SecretInput>;

  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'string' },
    default: ['*'],
    description: 'Tools callers may use: `["*"]` every tool the server lists, `[]` none, or names.',
  })
  @IsOptionalNonNull()
  @IsStringList({ maxItems: 1000, maxLength: 128 })
  tools_to_execute?: string[];

  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'string' },
    default: [],
    description: 'Tools agent mode runs by itself: a subset of `tools_to_execute`; `["*"]` only when it is `["*"]`.',
  })
  @IsOptionalNonNull()
  @IsStringList({ maxItems: 1000, maxLength: 128 })
  tools_to_auto_execute?: string[];

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: MAX_TOOL_EXECUTION_TIMEOUT_S,
    default: DEFAULT_TOOL_EXECUTION_TIMEOUT_S,
    description: 'Longest tool call, in seconds.',
  })
  @IsOptionalNonNull()
  @IsInt()
  @Min(1)
  @Max(MAX_TOOL_EXECUTION_TIMEOUT_S)
  tool_execution_timeout?: number;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'number', minimum: 0 },
    description: 'Price in USD per successful call, by tool name.',
    example: { search: 0.001 },
  })
  @IsOptionalNonNull()
  @IsObject()
  tool_pricing?: Record<string, number>;

  @ApiPropertyOptional({
    type: Boolean,
    default: false,
    description: 'Every virtual key (and keyless callers) may use it.',
  })
  @IsOptionalNonNull()
  @IsBoolean()
  allow_on_all_virtual_keys?: boolean;

  @ApiPropertyOptional({ type: Boolean, default: false, description: 'A disabled client is not connected nor served.' })
  @IsOptionalNonNull()
  @IsBoolean()
  disabled?: boolean;

  @ApiPropertyOptional({ type: [VkConfigDto], maxItems: 1000, description: 'Virtual keys granted access.' })
  @IsOptionalNonNull()
  @IsArray()
  @ArrayMaxSize(1000)
  @ValidateNested({ each: true })
  @Type(() => VkConfigDto)
  vk_configs?: VkConfigDto[];
}

@ApiSchema({ name: 'McpClientCreateRequest' })
export class CreateMcpClientDto extends McpClientFieldsDto {
  @ApiProperty({
    type: String,
    maxLength: 64,
    pattern: MCP_CLIENT_NAME_PATTERN.source,
    description: 'Unique name; prefixes its tools (`<name>-<tool>`): ASCII letters, digits and `_`, no leading digit.',
    example: 'github',
  })
  @IsString()
  @MaxLength(64)
  @Matches(MCP_CLIENT_NAME_PATTERN, {
    message: 'name must be ASCII letters, digits and _ without a leading digit (no - or spaces)',
  })
  name: string;

  @ApiProperty({ enum: CONNECTION_TYPES, enumName: 'McpConnectionType', description: 'Transport.' })
  @IsIn(CONNECTION_TYPES)
  connection_type: McpConnectionType;
}

/** PUT: the fields sent replace the stored ones; `connection_type` cannot change. */
@ApiSchema({ name: 'McpClientUpdateRequest' })
export class UpdateMcpClientDto extends McpClientFieldsDto {
  @ApiPropertyOptional({
    type: String,
    maxLength: 64,
    pattern: MCP_CLIENT_NAME_PATTERN.source,
    description: 'New name.',
  })
  @IsOptionalNonNull()
  @IsString()
  @MaxLength(64)
  @Matches(MCP_CLIENT_NAME_PATTERN, {
    message: 'name must be ASCII letters, digits and _ without a leading digit (no - or spaces)',
  })
  name?: string;

  @ApiPropertyOptional({
    enum: CONNECTION_TYPES,
    enumName: 'McpConnectionType',
    description: 'Immutable: only the stored value is accepted.',
  })
  @IsOptionalNonNull()
  @IsIn(CONNECTION_TYPES)
  connection_type?: McpConnectionType;
}

export class McpClientQueryDto extends PageQueryDto {
  @IntegerQuery({ minimum: 1, maximum: 100, default: 25, description: 'Page size' })
  declare limit?: number;

  @ApiPropertyOptional({ type: String, maxLength: 64, description: 'Name substring (case-insensitive).' })
  @IsOptionalNonNull()
  @IsString()
  @MaxLength(64)
  search?: string;

  @ApiPropertyOptional({ enum: CONNECTION_TYPES, enumName: 'McpConnectionType' })
  @IsOptionalNonNull()
  @IsIn(CONNECTION_TYPES)
  connection_type?: McpConnectionType;

  @ApiPropertyOptional({ enum: MCP_CLIENT_STATES, enumName: 'McpClientState', description: "This replica's state." })
  @IsOptionalNonNull()
  @IsIn(MCP_CLIENT_STATES)
  state?: McpClientState;
}

// ---- views ----

@ApiSchema({ name: 'McpStdioConfigView' })
export class StdioConfigViewDto {
  @ApiProperty({ type: String }) command: string;
  @ApiProperty({ type: [String] }) args: string[];
  @ApiProperty({ type: 'object', additionalProperties: { $ref: getSchemaPath(SecretValueDto) } })
  envs: Record<string, SecretValueDto>;
}

@ApiSchema({ name: 'McpToolView' })
export class McpToolViewDto {
  @ApiProperty({ type: String }) name: string;
  @ApiPropertyOptional({ type: String }) description?: string;
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'JSON Schema of the arguments.' })
  input_schema: Record<string, unknown>;
}

@ApiSchema({ name: 'McpVirtualKeyConfigView' })
export class VkConfigViewDto {
  @ApiProperty({ type: String }) virtual_key_id: string;
  @ApiPropertyOptional({ type: [String] }) tools_to_execute?: string[];
}

@ApiSchema({ name: 'McpClient' })
export class McpClientViewDto {
  @ApiProperty({ type: String, format: 'uuid' }) id: string;
  @ApiProperty({ type: String }) name: string;
  @ApiProperty({ enum: CONNECTION_TYPES, enumName: 'McpConnectionType' }) connection_type: McpConnectionType;
  @ApiPropertyOptional({ type: String }) connection_string?: string;
  @ApiPropertyOptional({ type: StdioConfigViewDto }) stdio_config?: StdioConfigViewDto;
  @ApiProperty({
    type: 'object',
    additionalProperties: { $ref: getSchemaPath(SecretValueDto) },
    description: 'Header name to redacted SecretValue.',
  })
  headers: Record<string, SecretValueDto>;
  @ApiProperty({ type: [String] }) tools_to_execute: string[];
  @ApiProperty({ type: [String] }) tools_to_auto_execute: string[];
  @ApiProperty({ type: 'integer', description: 'Seconds.' }) tool_execution_timeout: number;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'number' } }) tool_pricing: Record<string, number>;
  @ApiProperty({ type: Boolean }) allow_on_all_virtual_keys: boolean;
  @ApiProperty({ type: Boolean }) disabled: boolean;
  @ApiProperty({ type: [VkConfigViewDto] }) vk_configs: VkConfigViewDto[];
  @ApiProperty({ enum: MCP_CLIENT_STATES, enumName: 'McpClientState', description: "This replica's connection." })
  state: McpClientState;
  @ApiProperty({ type: [McpToolViewDto], description: 'Tools the server lists (all of them, before filters).' })
  tools: McpToolViewDto[];
  @ApiPropertyOptional({ type: String, nullable: true, description: 'Why the last connection attempt failed.' })
  last_error: string | null;
  @ApiProperty({ type: String, format: 'date-time' }) created_at: string;
  @ApiProperty({ type: String, format: 'date-time' }) updated_at: string;
}

@ApiSchema({ name: 'McpClientResponse' })
export class McpClientResponseDto {
  @ApiProperty({ type: McpClientViewDto }) client: McpClientViewDto;
}

@ApiSchema({ name: 'McpClientList' })
export class McpClientListDto {
  @ApiProperty({ type: [McpClientViewDto] }) clients: McpClientViewDto[];
  @ApiProperty({ type: 'integer', description: 'Clients on this page.' }) count: number;
  @ApiProperty({ type: 'integer', description: 'Clients matching the filters.' }) total_count: number;
  @ApiProperty({ type: 'integer' }) limit: number;
  @ApiProperty({ type: 'integer' }) offset: number;
}

@ApiSchema({ name: 'McpRefreshToolsResponse' })
export class McpRefreshToolsDto {
  @ApiProperty({ type: 'integer', description: 'Tools the server lists now.' }) tool_count: number;
}
