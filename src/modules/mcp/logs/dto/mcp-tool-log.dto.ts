import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { ArrayNotEmpty, ArrayUnique } from 'class-validator';
import { PaginationDto } from '../../../../core/http/paging.dto.js';
import { IsStringList } from '../../../../core/validation/field.decorators.js';
import { MCP_REQUEST_TYPES } from '../../mcp-contract.js';
import { MCP_LOG_STATUSES, type McpToolLogEntity } from '../entities/mcp-tool-log.entity.js';

@ApiSchema({ name: 'McpToolLogVirtualKey' })
export class McpToolLogVirtualKeyDto {
  @ApiProperty()
  id: string;

  @ApiProperty({ type: String, nullable: true })
  name: string | null;
}

@ApiSchema({ name: 'McpToolLog' })
export class McpToolLogDto {
  @ApiProperty({ description: 'The call’s log id' })
  id: string;

  @ApiProperty({ type: String, nullable: true, description: 'The inference request that asked for the call' })
  llm_request_id: string | null;

  @ApiProperty({ type: String, nullable: true })
  project_id: string | null;

  @ApiProperty({ type: String, nullable: true })
  project_name: string | null;

  @ApiProperty({ format: 'date-time', description: 'When the call started' })
  timestamp: string;

  @ApiProperty({ description: 'The exposed name `<client>-<tool>` (empty when the call’s start was never logged)' })
  tool_name: string;

  @ApiProperty({ description: 'The MCP client’s name' })
  server_label: string;

  @ApiProperty({
    enum: MCP_REQUEST_TYPES,
    description:
      'What was relayed: `tool` (a tools/call), `resource` (a resources/read; `tool_name` is the URI), `prompt` ' +
      '(a prompts/get; `tool_name` is `<client>-<prompt>`) or `completion` (a completion/complete; `tool_name` is ' +
      'the prompt’s exposed name or the resource template)',
  })
  mcp_request_type: string;

  @ApiProperty({ type: String, nullable: true })
  virtual_key_id: string | null;

  @ApiProperty({ type: String, nullable: true })
  virtual_key_name: string | null;

  @ApiProperty({ type: 'object', additionalProperties: true, nullable: true })
  arguments: Record<string, unknown> | null;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    description: 'The tool’s result, kept on `isError: true` results too',
  })
  result: unknown;

  @ApiProperty({ type: 'object', additionalProperties: true, nullable: true, description: 'A GatewayError body' })
  error_details: Record<string, unknown> | null;

  @ApiProperty({ type: Number, nullable: true, description: 'Milliseconds; null while processing' })
  latency: number | null;

  @ApiProperty({ type: Number, nullable: true, description: 'USD, on success only' })
  cost: number | null;

  @ApiProperty({ enum: MCP_LOG_STATUSES })
  status: string;

  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' }, nullable: true })
  metadata: Record<string, string> | null;

  @ApiProperty({ type: String, nullable: true })
  plugin_logs: string | null;

  @ApiProperty({
    type: 'object',
    nullable: true,
    properties: {
      input: { type: 'object', additionalProperties: true },
      output: { type: 'object', additionalProperties: true },
    },
  })
  redaction_mapping: { input: Record<string, unknown>; output: Record<string, unknown> } | null;

  @ApiProperty({ format: 'date-time' })
  created_at: string;

  @ApiProperty({
    type: McpToolLogVirtualKeyDto,
    nullable: true,
    description: 'The virtual key that made the call (id and name; never its value)',
  })
  virtual_key: McpToolLogVirtualKeyDto | null;

  static from(row: McpToolLogEntity): McpToolLogDto {
    const dto = new McpToolLogDto();
    Object.assign(dto, {
      id: row.id,
      llm_request_id: row.llm_request_id,
      project_id: row.project_id,
      project_name: row.project_name,
      timestamp: row.timestamp.toISOString(),
      tool_name: row.tool_name,
      server_label: row.server_label,
      mcp_request_type: row.mcp_request_type,
      virtual_key_id: row.virtual_key_id,
      virtual_key_name: row.virtual_key_name,
      arguments: row.arguments,
      result: row.result ?? null,
      error_details: row.error_details,
      latency: row.latency,
      cost: row.cost,
      status: row.status,
      metadata: row.metadata,
      plugin_logs: row.plugin_logs,
      redaction_mapping: row.redaction_mapping,
      created_at: row.created_at.toISOString(),
      virtual_key: row.virtual_key_id ? { id: row.virtual_key_id, name: row.virtual_key_name } : null,
    });
    return dto;
  }
}

@ApiSchema({ name: 'McpToolLogList' })
export class McpToolLogListDto {
  @ApiProperty({ type: [McpToolLogDto] })
  logs: McpToolLogDto[];

  @ApiProperty({ type: PaginationDto })
  pagination: PaginationDto;

  @ApiProperty({ description: 'Whether any tool log exists at all, ignoring the filters' })
  has_logs: boolean;
}

@ApiSchema({ name: 'McpToolLogStats' })
export class McpToolLogStatsDto {
  @ApiProperty({ type: 'integer', description: 'Calls matching the filters (processing ones included)' })
  total_executions: number;

  @ApiProperty({ description: 'Percent of finished calls (success or error) that succeeded; 0 without any' })
  success_rate: number;

  @ApiProperty({ description: 'Mean latency of the calls that have one, milliseconds' })
  average_latency: number;

  @ApiProperty({ description: 'USD' })
  total_cost: number;
}

@ApiSchema({ name: 'McpToolLogHistogramBucket' })
export class McpToolLogHistogramBucketDto {
  @ApiProperty({ format: 'date-time', description: 'Start of the bucket' })
  timestamp: string;

  @ApiProperty({ type: 'integer' })
  count: number;

  @ApiProperty({ type: 'integer' })
  success: number;

  @ApiProperty({ type: 'integer' })
  error: number;

  @ApiProperty({ type: 'integer' })
  processing: number;
}

@ApiSchema({ name: 'McpToolLogHistogram' })
export class McpToolLogHistogramDto {
  @ApiProperty({ format: 'date-time' })
  start_time: string;

  @ApiProperty({ format: 'date-time' })
  end_time: string;

  @ApiProperty({ type: 'integer', description: 'Bucket width, chosen from the range (at most 120 buckets)' })
  bucket_size_seconds: number;

  @ApiProperty({ type: [McpToolLogHistogramBucketDto], description: 'Every bucket of the range, empty ones included' })
  buckets: McpToolLogHistogramBucketDto[];
}

@ApiSchema({ name: 'McpToolLogFilterData' })
export class McpToolLogFilterDataDto {
  @ApiProperty({ type: [String] })
  tool_names: string[];

  @ApiProperty({ type: [String] })
  server_labels: string[];

  @ApiProperty({ type: [McpToolLogVirtualKeyDto] })
  virtual_keys: McpToolLogVirtualKeyDto[];
}

@ApiSchema({ name: 'DeleteMcpToolLogsRequest' })
export class DeleteMcpToolLogsDto {
  @ApiProperty({ type: [String], description: 'Tool log ids (1–1000)', maxItems: 1000 })
  @IsStringList({ maxItems: 1000, maxLength: 128 })
  @ArrayNotEmpty()
  @ArrayUnique({ message: 'ids must not contain duplicates' })
  ids: string[];
}

@ApiSchema({ name: 'DeleteMcpToolLogsResult' })
export class DeleteMcpToolLogsResultDto {
  @ApiProperty()
  message: string;

  @ApiProperty({ type: 'integer', description: 'Rows deleted (ids that did not exist are not counted)' })
  deleted: number;
}
