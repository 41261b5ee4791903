import { ApiProperty, ApiPropertyOptional, ApiSchema, OmitType, PartialType } from '@nestjs/swagger';
import { REDIS_FAILURE_MODES, EDITIONS, ROLES } from '../../../core/config/gateway-config.js';

const DURATION = 'a duration greater than zero such as 30d';

@ApiSchema({
  name: 'RuntimeNetworkDefaults',
  description: 'Retries and timeouts of every provider whose own network_config does not set them (docs/inference.md).',
})
export class RuntimeNetworkDefaultsDto {
  @ApiProperty({ example: '30s', description: 'One upstream attempt gives up after this long (1ms to 1h).' })
  default_request_timeout: string;

  @ApiProperty({ type: 'integer', minimum: 0, maximum: 10, description: 'Retries after a retryable failure.' })
  max_retries: number;

  @ApiProperty({ example: '500ms', description: 'First retry backoff, doubled per retry (at most 5m).' })
  retry_backoff_initial: string;

  @ApiProperty({ example: '5s', description: 'Longest retry backoff (at most 5m; not below retry_backoff_initial).' })
  retry_backoff_max: string;
}

@ApiSchema({ name: 'RuntimeInferenceSettings' })
export class RuntimeInferenceSettingsDto {
  @ApiProperty({ description: 'A virtual key is required on every inference request.' })
  require_virtual_key: boolean;

  @ApiProperty({ description: 'A Bearer that is not a virtual key is used as the provider key itself (pass-through).' })
  allow_direct_keys: boolean;

  @ApiProperty({ type: 'integer', minimum: 1, maximum: 100, description: 'Most steps of a routing rule chain.' })
  routing_chain_max_depth: number;

  @ApiProperty({
    type: 'integer',
    minimum: 60,
    maximum: 604800,
    description: 'Seconds an async job result stays readable (per request: x-gateway-async-job-result-ttl).',
  })
  async_job_result_ttl: number;

  @ApiProperty({
    type: [String],
    maxItems: 100,
    example: ['x-tenant-id', 'x-trace-*'],
    description:
      'Caller request headers forwarded to the upstream provider: lower-case names, or prefixes ending in `*`. Credentials, hop-by-hop and `x-gateway-*` headers are never forwarded.',
  })
  forward_headers: string[];

  @ApiProperty({ type: RuntimeNetworkDefaultsDto })
  network_defaults: RuntimeNetworkDefaultsDto;
}

@ApiSchema({ name: 'RuntimeLogsSettings' })
export class RuntimeLogsSettingsDto {
  @ApiProperty({ description: 'Write a request log row per inference request.' })
  enabled: boolean;

  @ApiProperty({ description: "Store the request's input and the answer's output." })
  capture_content: boolean;

  @ApiProperty({
    type: 'integer',
    minimum: 256,
    maximum: 16777216,
    description: 'Largest input or output kept per row.',
  })
  max_content_bytes: number;

  @ApiProperty({
    description:
      "Also store the provider's raw request and response bodies: the exact body sent upstream and the body received, " +
      'as bytes, not redacted (a field named like a credential inside them is kept as sent). Headers, which carry ' +
      'the provider key, are never stored.',
  })
  capture_raw: boolean;

  @ApiProperty({ pattern: '^[a-z0-9-]+$', description: "Request headers with this prefix go to the row's metadata." })
  metadata_header_prefix: string;

  @ApiProperty({ example: '30d', description: `Request logs older than this are purged (${DURATION}).` })
  retention: string;
}

@ApiSchema({ name: 'RuntimeGovernanceSettings' })
export class RuntimeGovernanceSettingsDto {
  @ApiProperty({
    enum: REDIS_FAILURE_MODES,
    description:
      'When the shared counters (Redis) do not answer: `closed` refuses governed requests, `open` lets them through.',
  })
  redis_failure_mode: string;
}

@ApiSchema({ name: 'RuntimeMcpSettings' })
export class RuntimeMcpSettingsDto {
  @ApiProperty({ type: 'integer', minimum: 1, maximum: 100, description: 'Most tool rounds of agent mode.' })
  max_agent_depth: number;
}

@ApiSchema({ name: 'RuntimeHttpSettings' })
export class RuntimeHttpSettingsDto {
  @ApiProperty({
    type: [String],
    maxItems: 100,
    example: ['https://dashboard.example.com'],
    description:
      'Browser origins allowed to call /api and /v1 (CORS, preflight included), or `*` (any origin, without credentials). Empty: no CORS headers.',
  })
  cors_allowed_origins: string[];
}

@ApiSchema({
  name: 'RuntimeSettings',
  description: 'The settings that change at run time, nested as in the config file.',
})
export class RuntimeSettingsDto {
  @ApiProperty({ type: RuntimeInferenceSettingsDto }) inference: RuntimeInferenceSettingsDto;
  @ApiProperty({ type: RuntimeLogsSettingsDto }) logs: RuntimeLogsSettingsDto;
  @ApiProperty({ type: RuntimeGovernanceSettingsDto }) governance: RuntimeGovernanceSettingsDto;
  @ApiProperty({ type: RuntimeMcpSettingsDto }) mcp: RuntimeMcpSettingsDto;
  @ApiProperty({ type: RuntimeHttpSettingsDto }) http: RuntimeHttpSettingsDto;
}

@ApiSchema({ name: 'ProcessSettings', description: 'Settings of the process: read-only, changed by a restart.' })
export class ProcessSettingsDto {
  @ApiProperty({ readOnly: true }) host: string;
  @ApiProperty({ type: 'integer', readOnly: true }) port: number;
  @ApiProperty({ enum: ROLES, readOnly: true }) role: string;
  @ApiProperty({ enum: EDITIONS, readOnly: true }) edition: string;
  @ApiProperty({ enum: ['postgres', 'pglite'], readOnly: true, description: 'The database kind (never its URL).' })
  database: string;
  @ApiProperty({
    readOnly: true,
    description: 'Whether Postgres sessions may use parallel workers (`database_parallel_query`; off by default).',
  })
  database_parallel_query: boolean;
  @ApiProperty({ readOnly: true, description: 'Whether Redis is used (scale-out).' }) redis: boolean;
  @ApiProperty({ readOnly: true }) redis_prefix: string;
  @ApiProperty({
    enum: ['config', 'file', 'generated'],
    readOnly: true,
    description: 'Where the encryption key came from (never the key).',
  })
  encryption_key_source: string;
  @ApiProperty({ readOnly: true }) app_dir: string;
  @ApiProperty({ type: String, nullable: true, readOnly: true, description: 'The config file read at start.' })
  config_path: string | null;
}

@ApiSchema({ name: 'RuntimeConfig' })
export class RuntimeConfigDto {
  @ApiProperty({ type: RuntimeSettingsDto })
  config: RuntimeSettingsDto;

  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string', enum: ['file', 'api', 'default'] },
    example: {
      'inference.require_virtual_key': 'api',
      'logs.retention': 'file',
      'http.cors_allowed_origins': 'default',
    },
    description:
      'Each runtime key (dotted) to where its value comes from: `api` (PUT /api/config, stored), `file` (config file, environment or flag) or `default`.',
  })
  sources: Record<string, 'file' | 'api' | 'default'>;

  @ApiProperty({ type: ProcessSettingsDto, readOnly: true })
  process: ProcessSettingsDto;
}

@ApiSchema({ name: 'RuntimeNetworkDefaultsUpdate' })
class RuntimeNetworkDefaultsUpdateDto extends PartialType(RuntimeNetworkDefaultsDto) {}
@ApiSchema({ name: 'RuntimeInferenceSettingsUpdate' })
class RuntimeInferenceSettingsUpdateDto extends PartialType(
  OmitType(RuntimeInferenceSettingsDto, ['network_defaults']),
) {
  @ApiPropertyOptional({ type: RuntimeNetworkDefaultsUpdateDto }) network_defaults?: RuntimeNetworkDefaultsUpdateDto;
}
@ApiSchema({ name: 'RuntimeLogsSettingsUpdate' })
class RuntimeLogsSettingsUpdateDto extends PartialType(RuntimeLogsSettingsDto) {}
@ApiSchema({ name: 'RuntimeGovernanceSettingsUpdate' })
class RuntimeGovernanceSettingsUpdateDto extends PartialType(RuntimeGovernanceSettingsDto) {}
@ApiSchema({ name: 'RuntimeMcpSettingsUpdate' })
class RuntimeMcpSettingsUpdateDto extends PartialType(RuntimeMcpSettingsDto) {}
@ApiSchema({ name: 'RuntimeHttpSettingsUpdate' })
class RuntimeHttpSettingsUpdateDto extends PartialType(RuntimeHttpSettingsDto) {}

/** Documentation of the PUT body only: the handler checks it against the runtime keys itself (runtime-keys.ts). */
@ApiSchema({
  name: 'RuntimeSettingsUpdate',
  description:
    'Any subset of the runtime settings, nested as in the config file. A value `null` resets the key to the config file or default value.',
})
export class RuntimeSettingsUpdateDto {
  @ApiPropertyOptional({ type: RuntimeInferenceSettingsUpdateDto }) inference?: RuntimeInferenceSettingsUpdateDto;
  @ApiPropertyOptional({ type: RuntimeLogsSettingsUpdateDto }) logs?: RuntimeLogsSettingsUpdateDto;
  @ApiPropertyOptional({ type: RuntimeGovernanceSettingsUpdateDto }) governance?: RuntimeGovernanceSettingsUpdateDto;
  @ApiPropertyOptional({ type: RuntimeMcpSettingsUpdateDto }) mcp?: RuntimeMcpSettingsUpdateDto;
  @ApiPropertyOptional({ type: RuntimeHttpSettingsUpdateDto }) http?: RuntimeHttpSettingsUpdateDto;
}
