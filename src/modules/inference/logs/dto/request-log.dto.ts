import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { ArrayNotEmpty, ArrayUnique, IsUUID } from 'class-validator';
import { PaginationDto } from '../../../../core/http/paging.dto.js';
import { IsStringList } from '../../../../core/validation/field.decorators.js';
import { LOG_STATUSES, type RequestLogEntity } from '../entities/request-log.entity.js';
import type { RequestLogContentEntity } from '../entities/request-log-content.entity.js';

@ApiSchema({ name: 'RequestLog' })
export class RequestLogDto {
  @ApiProperty({ format: 'uuid', description: "The row's id; the primary row's id is the request's x-request-id" })
  id: string;

  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'Set on a fallback attempt: the request' })
  parent_request_id: string | null;

  @ApiProperty({ format: 'date-time', description: 'When the request (or this fallback attempt) started' })
  timestamp: string;

  @ApiProperty({ description: 'Request type', example: 'chat_completion' })
  object: string;

  @ApiProperty({ type: String, nullable: true, example: 'openai' })
  provider: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'Model sent to the provider', example: 'gpt-4o-mini' })
  model: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'Requested model, when a key alias mapped it' })
  alias: string | null;

  @ApiProperty({ type: String, nullable: true })
  canonical_model_name: string | null;

  @ApiProperty({ type: String, nullable: true })
  alias_model_family: string | null;

  @ApiProperty({ type: 'integer', description: '0: the primary model; n: the n-th fallback' })
  fallback_index: number;

  @ApiProperty({ type: 'integer' })
  number_of_retries: number;

  @ApiProperty({ type: String, nullable: true })
  selected_key_id: string | null;

  @ApiProperty({ type: String, nullable: true })
  selected_key_name: string | null;

  @ApiProperty({ type: String, nullable: true })
  virtual_key_id: string | null;

  @ApiProperty({ type: String, nullable: true })
  virtual_key_name: string | null;

  @ApiProperty({ type: String, nullable: true })
  team_id: string | null;

  @ApiProperty({ type: String, nullable: true })
  customer_id: string | null;

  @ApiProperty({ type: String, nullable: true })
  routing_rule_id: string | null;

  @ApiProperty({ enum: LOG_STATUSES })
  status: string;

  @ApiProperty({ type: 'integer', description: 'HTTP status the caller got (499: the caller went away)' })
  status_code: number;

  @ApiProperty()
  stream: boolean;

  @ApiProperty({ description: 'Milliseconds to the last byte (or the failure)' })
  latency: number;

  @ApiProperty({ type: Number, nullable: true, description: 'Streams: milliseconds to the first event' })
  time_to_first_token: number | null;

  @ApiProperty({ type: 'integer', nullable: true })
  prompt_tokens: number | null;

  @ApiProperty({ type: 'integer', nullable: true })
  completion_tokens: number | null;

  @ApiProperty({ type: 'integer', nullable: true })
  total_tokens: number | null;

  @ApiProperty({ type: Number, nullable: true, description: 'USD; null when the price is unknown' })
  cost: number | null;

  @ApiProperty({ type: String, nullable: true, example: 'stop' })
  stop_reason: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'provider_rate_limited' })
  error_type: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'Start of the last input message' })
  content_summary: string | null;

  @ApiProperty({ type: Object, nullable: true, description: 'The Usage object with its cost' })
  token_usage: Record<string, unknown> | null;

  @ApiProperty({ type: Object, nullable: true, description: 'The GatewayError body the caller got' })
  error_details: Record<string, unknown> | null;

  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string' },
    nullable: true,
    description: 'Captured request headers (prefix removed) and the caller-chosen x-request-id',
  })
  metadata: Record<string, string> | null;

  @ApiProperty({ description: 'Answered from the response cache by a plugin: no provider called, zero cost' })
  cache_hit: boolean;

  @ApiProperty({ type: String, nullable: true, enum: ['direct', 'semantic'], description: "The cache hit's kind" })
  cache_type: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'What plugins logged on the request: a JSON array of { plugin, level, message, at_ms } (primary row)',
  })
  plugin_logs: string | null;

  static from(row: RequestLogEntity): RequestLogDto {
    return { ...row, timestamp: new Date(row.timestamp).toISOString() };
  }
}

@ApiSchema({ name: 'RequestLogDetail' })
export class RequestLogDetailDto extends RequestLogDto {
  @ApiPropertyOptional({ description: "Input (a fallback's row shows its request's)", nullable: true })
  input_history: unknown;

  @ApiPropertyOptional({ description: 'Output: message with tool calls, items, results, embeddings summary' })
  output_message: unknown;

  @ApiPropertyOptional({ type: Object, nullable: true, description: 'Request parameters' })
  params: Record<string, unknown> | null;

  @ApiPropertyOptional({ nullable: true })
  tools: unknown;

  @ApiPropertyOptional({ type: String, nullable: true, description: 'Only with logs.capture_raw' })
  raw_request: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, description: 'Only with logs.capture_raw' })
  raw_response: string | null;

  static withContent(
    row: RequestLogEntity,
    content: RequestLogContentEntity | null,
    input: unknown,
  ): RequestLogDetailDto {
    return {
      ...RequestLogDto.from(row),
      input_history: input ?? null,
      output_message: content?.output_message ?? null,
      params: content?.params ?? null,
      tools: content?.tools ?? null,
      raw_request: content?.raw_request ?? null,
      raw_response: content?.raw_response ?? null,
    };
  }
}

@ApiSchema({ name: 'RequestLogStats' })
export class LogStatsDto {
  @ApiProperty({ type: 'integer' })
  total_requests: number;

  @ApiProperty({ description: 'Percent of rows with status success (0–100)' })
  success_rate: number;

  @ApiProperty({ description: 'Milliseconds' })
  average_latency: number;

  @ApiProperty({ type: 'integer' })
  total_tokens: number;

  @ApiProperty({ description: 'USD' })
  total_cost: number;
}

@ApiSchema({ name: 'RequestLogList' })
export class LogsListDto {
  @ApiProperty({ type: [RequestLogDto] })
  logs: RequestLogDto[];

  @ApiProperty({ type: PaginationDto })
  pagination: PaginationDto;

  @ApiProperty({
    type: LogStatsDto,
    description:
      'Totals over the rows the filters match; with `content_search` or `count_limit`, over the matches counted for ' +
      '`pagination.total_count` (all of them unless `x-gateway-total-count-capped` is set)',
  })
  stats: LogStatsDto;

  @ApiProperty({ description: 'Whether any log exists at all, ignoring the filters' })
  has_logs: boolean;
}

@ApiSchema({ name: 'DeleteRequestLogsRequest' })
export class DeleteLogsDto {
  @ApiProperty({ type: [String], description: 'Log ids (1–1000)', maxItems: 1000 })
  @IsStringList({ maxItems: 1000, maxLength: 64 })
  @ArrayNotEmpty()
  @ArrayUnique({ message: 'ids must not contain duplicates' })
  @IsUUID('all', { each: true, message: 'ids must be log ids (UUIDs)' })
  ids: string[];
}

@ApiSchema({ name: 'DeleteRequestLogsResult' })
export class DeleteLogsResultDto {
  @ApiProperty()
  message: string;

  @ApiProperty({ type: 'integer', description: 'Rows deleted (ids that did not exist are not counted)' })
  deleted: number;
}

@ApiSchema({ name: 'RequestLogHistogramBucket' })
export class HistogramBucketDto {
  @ApiProperty({ format: 'date-time', description: 'Start of the bucket' })
  timestamp: string;

  @ApiProperty({ type: 'integer' })
  count: number;

  @ApiPropertyOptional({ type: 'integer' })
  success?: number;

  @ApiPropertyOptional({ type: 'integer' })
  error?: number;

  @ApiPropertyOptional({ type: 'integer' })
  prompt_tokens?: number;

  @ApiPropertyOptional({ type: 'integer' })
  completion_tokens?: number;

  @ApiPropertyOptional({ type: 'integer' })
  total_tokens?: number;

  @ApiPropertyOptional({ description: 'USD' })
  cost?: number;

  @ApiPropertyOptional({ type: Number, nullable: true, description: 'Milliseconds' })
  avg?: number | null;

  @ApiPropertyOptional({ type: Number, nullable: true })
  p50?: number | null;

  @ApiPropertyOptional({ type: Number, nullable: true })
  p90?: number | null;

  @ApiPropertyOptional({ type: Number, nullable: true })
  p95?: number | null;

  @ApiPropertyOptional({ type: Number, nullable: true })
  p99?: number | null;
}

@ApiSchema({ name: 'RequestLogHistogram' })
export class HistogramDto {
  @ApiProperty({ format: 'date-time' })
  start_time: string;

  @ApiProperty({ format: 'date-time' })
  end_time: string;

  @ApiProperty({ type: 'integer', description: 'Bucket width, chosen from the range (at most 120 buckets)' })
  bucket_size_seconds: number;

  @ApiProperty({ type: [HistogramBucketDto], description: 'Every bucket of the range, empty ones included' })
  buckets: HistogramBucketDto[];
}

@ApiSchema({ name: 'RequestLogNamedId' })
export class NamedIdDto {
  @ApiProperty()
  id: string;

  @ApiProperty({ type: String, nullable: true })
  name: string | null;
}

@ApiSchema({ name: 'RequestLogFilterData' })
export class FilterDataDto {
  @ApiProperty({ type: [String] })
  providers: string[];

  @ApiProperty({ type: [String] })
  models: string[];

  @ApiProperty({ type: [String] })
  objects: string[];

  @ApiProperty({ type: [NamedIdDto], description: 'Provider keys seen in the logs' })
  selected_keys: NamedIdDto[];

  @ApiProperty({ type: [NamedIdDto] })
  virtual_keys: NamedIdDto[];
}

@ApiSchema({ name: 'DroppedRequestLogs' })
export class DroppedLogsDto {
  @ApiProperty({ type: 'integer', description: 'Rows given up since start (this process), all reasons' })
  dropped: number;

  @ApiProperty({ type: 'integer', description: 'Refused because the buffer was full' })
  buffer_full: number;

  @ApiProperty({ type: 'integer', description: 'Lost to a write that failed twice, or appended after shutdown' })
  write_failed: number;

  @ApiProperty({ type: 'integer', description: 'Rows written since start' })
  written: number;

  @ApiProperty({ type: 'integer', description: 'Rows waiting for a write' })
  pending: number;
}

/** The live channel's frame for a new request-log row (`GET /ws`, docs/live-channel.md). */
@ApiSchema({ name: 'LiveLogEvent' })
export class LiveLogEventDto {
  @ApiProperty({ enum: ['log'] })
  type: 'log';

  @ApiProperty({ enum: ['created'] })
  action: 'created';

  @ApiProperty({ description: "The row's id" })
  id: string;

  @ApiProperty({ type: RequestLogDto, description: 'The row as `GET /api/logs` lists it' })
  data: RequestLogDto;

  @ApiProperty({ format: 'date-time', description: 'When the row was queued for writing' })
  at: string;
}
