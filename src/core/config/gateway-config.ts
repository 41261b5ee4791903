import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  IsUrl,
  Matches,
  Max,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';

export const EDITIONS = ['oss', 'enterprise'] as const;
export type Edition = (typeof EDITIONS)[number];
export const ROLES = ['api', 'worker', 'all'] as const;
export type ProcessRole = (typeof ROLES)[number];
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Durations in config and input are strings such as `30s`, `5m`, `1h`, `2d`. */
export const DURATION_PATTERN = /^\d+(ms|s|m|h|d)$/;
/** A duration greater than zero (intervals and retention periods, where 0 would mean "always" or "at once"). */
export const POSITIVE_DURATION_PATTERN = /^[1-9]\d*(ms|s|m|h|d)$/;

export class AuthConfig {
  @IsBoolean()
  is_enabled = false;

  @IsOptional()
  @IsString()
  admin_username?: string;

  /** A SecretValue in input form A: plain text, `env.VAR` or `vault.path`. */
  @IsOptional()
  @IsString()
  admin_password?: string;

  @Matches(DURATION_PATTERN, { message: 'must be a duration such as 30m, 24h or 7d' })
  session_ttl = '24h';
}

export class LimitsConfig {
  @Max(1024 * 1024 * 1024)
  @Min(1024)
  @IsInt()
  max_body_bytes = 10 * 1024 * 1024;
}

export class OutboundConfig {
  @IsBoolean()
  allow_loopback = false;

  @IsBoolean()
  allow_private_networks = true;
}

/**
 * The buffered writer of append-only records (history, audit, later request and MCP logs): rows wait in memory and
 * are written as multi-row INSERTs, off the request path.
 */
export class AppendLogConfig {
  /** Rows held per kind while waiting for a write; beyond this new rows are dropped (and counted). */
  @Max(1_000_000)
  @Min(1)
  @IsInt()
  max_buffered_rows = 10_000;

  /** Rows per INSERT statement; a kind flushes as soon as this many rows wait. */
  @Max(10_000)
  @Min(1)
  @IsInt()
  batch_size = 500;

  /** Rows never wait longer than this for a write. */
  @Matches(POSITIVE_DURATION_PATTERN, { message: 'must be a duration greater than zero such as 200ms or 1s' })
  flush_interval = '200ms';
}

/**
 * How long one kind of append-only record is kept: rows older than `retention` are deleted by the periodic purge.
 * Each kind has its own top-level key (`agent_history`, `audit_logs`, later `request_logs`, `mcp_logs`).
 */
export class AgentHistoryConfig {
  @Matches(POSITIVE_DURATION_PATTERN, { message: 'must be a duration greater than zero such as 30d' })
  retention = '30d';
}

export class AuditLogsConfig {
  @Matches(POSITIVE_DURATION_PATTERN, { message: 'must be a duration greater than zero such as 90d' })
  retention = '90d';
}

/**
 * Request logs of the inference plane (`/api/logs`): one row per request (and per fallback attempt), written in
 * batches off the request path, deleted after `retention`.
 */
export class LogsConfig {
  /** Write a log row per inference request (off: nothing is recorded, `/api/logs` stays empty). */
  @IsBoolean()
  enabled = true;

  /** Store the request's input and the answer's output (messages, tool calls, embeddings as a summary). */
  @IsBoolean()
  capture_content = true;

  /** Largest input or output kept per row (characters of JSON); a bigger one keeps a truncated preview. */
  @Max(16 * 1024 * 1024)
  @Min(256)
  @IsInt()
  max_content_bytes = 64 * 1024;

  /**
   * Also store the provider's raw request and response bodies: the exact body sent upstream and the body received,
   * not redacted (off: they double the row and may hold more data). Headers are never stored.
   */
  @IsBoolean()
  capture_raw = false;

  /** Request headers starting with this prefix are stored in the row's `metadata` (the prefix removed). */
  @Matches(/^[a-z0-9-]+$/, { message: 'must be a lower-case header name prefix such as x-gateway-log-meta-' })
  metadata_header_prefix = 'x-gateway-log-meta-';

  @Matches(POSITIVE_DURATION_PATTERN, { message: 'must be a duration greater than zero such as 30d' })
  retention = '30d';
}

/** An MCP allowed origin: `*`, or `http(s)://` a host (`*.` for its subdomains) and an optional port (`*` for any). */
export const MCP_ORIGIN_PATTERN = /^(\*|https?:\/\/(\*\.)?([A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(:(\d{1,5}|\*))?)$/;
/** An MCP allowed host: `*`, a host name (`*.` for its subdomains), an IPv4 or a bracketed IPv6 address; no port. */
export const MCP_HOST_PATTERN = /^(\*|(\*\.)?[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])$/;

/** The MCP gateway (`/api/mcp-*`, `/v1/mcp`, `/mcp`). */
export class McpConfig {
  /**
   * A tool log still `processing` this long after its call started is failed by the sweeper (its call never
   * finished: the process died, or the finish was dropped).
   */
  @Matches(POSITIVE_DURATION_PATTERN, { message: 'must be a duration greater than zero such as 30m' })
  pending_log_ttl = '30m';

  /** Tool logs (`/api/mcp-logs`) older than this are deleted by the periodic purge. */
  @Matches(POSITIVE_DURATION_PATTERN, { message: 'must be a duration greater than zero such as 30d' })
  log_retention = '30d';

  /**
   * Agent mode (docs/mcp.md): most rounds of auto-executable tool calls the gateway runs itself for one non-streaming
   * chat or responses request (each followed by a model call); at the limit the last model answer is returned as is.
   */
  @Max(100)
  @Min(1)
  @IsInt()
  max_agent_depth = 10;

  /**
   * DNS-rebinding protection of `/mcp` and `/mcp/{client}` (docs/mcp.md): browser origins allowed to call them besides
   * the gateway's own (the request's own scheme and host, and `public_base_url`'s). `scheme://host[:port]`, a port of
   * `*` for any, a host of `*.example.com` for its subdomains, or `*` for any origin. A request whose `Origin` is
   * present and matches none is refused with 403.
   */
  @ArrayMaxSize(100)
  @Matches(MCP_ORIGIN_PATTERN, {
    each: true,
    message: 'each must be an origin such as https://app.example.com, http://localhost:* (any port) or *',
  })
  @IsString({ each: true })
  @IsArray()
  allowed_origins: string[] = ['http://localhost:*'];

  /**
   * Host names `/mcp` answers to besides loopback names (`localhost`, `127.0.0.1`, `[::1]`), the listen address and
   * `public_base_url`'s host: `mcp.example.com`, `*.example.com`, or `*` for any. A request whose `Host` names another
   * host is refused with 403.
   */
  @ArrayMaxSize(100)
  @Matches(MCP_HOST_PATTERN, {
    each: true,
    message: 'each must be a host name such as mcp.example.com, *.example.com, an IP address or *',
  })
  @IsString({ each: true })
  @IsArray()
  allowed_hosts: string[] = [];
}

/** Access profiles (enterprise; docs/access-profiles.md). */
export class AccessProfilesConfig {
  /**
   * How long `POST …/propagate` waits for its job before answering 202 `{ job_id }` (the job goes on; its status is at
   * `GET /api/governance/access-profiles/propagations/{job_id}`).
   */
  @Matches(DURATION_PATTERN, { message: 'must be a duration such as 30s' })
  propagation_wait = '30s';
}

/**
 * Retries and timeouts of a provider that its own `network_config` does not set (docs/inference.md). Read when the
 * provider snapshot is built, which a change of these rebuilds: they change at run time (PUT /api/config).
 */
export class NetworkDefaultsConfig {
  /** One upstream attempt gives up after this long (at most 1h). */
  @Matches(POSITIVE_DURATION_PATTERN, { message: 'must be a duration greater than zero such as 30s' })
  default_request_timeout = '30s';

  /** Retries after a retryable failure (429, 5xx, network), beyond the first attempt. */
  @Max(10)
  @Min(0)
  @IsInt()
  max_retries = 0;

  /** First retry backoff, doubled on each retry up to `retry_backoff_max` (at most 5m). */
  @Matches(DURATION_PATTERN, { message: 'must be a duration such as 500ms or 1s' })
  retry_backoff_initial = '500ms';

  /** Longest retry backoff, also the longest provider retry hint waited for (at most 5m). */
  @Matches(DURATION_PATTERN, { message: 'must be a duration such as 5s or 1m' })
  retry_backoff_max = '5s';
}

/** A lower-case header name (RFC 9110 token characters), optionally a prefix ending in `*`. */
export const FORWARD_HEADER_PATTERN = /^[a-z0-9!#$%&'+.^_`|~-]+\*?$/;
/** `https://host[:port]` (no path), or `*` for any origin. */
export const CORS_ORIGIN_PATTERN = /^(\*|https?:\/\/[A-Za-z0-9.-]+(:\d{1,5})?)$/;

/** HTTP settings of the gateway's own listener that may change at run time. */
export class HttpConfig {
  /**
   * Browser origins allowed to call `/api/*` and `/v1/*` (CORS, preflight included): `https://app.example.com`, or `*`
   * for any origin (then without credentials). Empty: no CORS headers at all.
   */
  @ArrayMaxSize(100)
  @Matches(CORS_ORIGIN_PATTERN, {
    each: true,
    message: 'each must be an origin such as https://app.example.com (scheme, host, optional port; no path) or *',
  })
  @IsString({ each: true })
  @IsArray()
  cors_allowed_origins: string[] = [];
}

/** The unified inference API (/v1): who may call it. */
export class InferenceConfig {
  /** A virtual key is required on every inference request. */
  @IsBoolean()
  require_virtual_key = true;

  /** A Bearer that is not a virtual key is used as the provider key itself (pass-through). */
  @IsBoolean()
  allow_direct_keys = false;

  /** Most steps of a routing rule chain (`chain_rule`): rules matched one after another for one request. */
  @Max(100)
  @Min(1)
  @IsInt()
  routing_chain_max_depth = 10;

  /**
   * How long an async job's result stays readable after the job finished (seconds; per request
   * `x-gateway-async-job-result-ttl`, 60 s to 7 days). Expired jobs are deleted by the periodic purge.
   */
  @Max(7 * 24 * 3600)
  @Min(60)
  @IsInt()
  async_job_result_ttl = 3600;

  /**
   * Caller request headers passed on to the upstream provider: lower-case names (`x-tenant-id`), or prefixes ending
   * in `*` (`x-trace-*`). Credentials, hop-by-hop and gateway control headers are never forwarded (docs/config.md).
   */
  @ArrayMaxSize(100)
  @Matches(FORWARD_HEADER_PATTERN, {
    each: true,
    message: 'each must be a lower-case header name, or a prefix ending in * (such as x-tenant-*)',
  })
  @IsString({ each: true })
  @IsArray()
  forward_headers: string[] = [];

  @ValidateNested()
  @Type(() => NetworkDefaultsConfig)
  network_defaults: NetworkDefaultsConfig = new NetworkDefaultsConfig();
}

/** How async inference jobs (`/v1/async/*`, docs/async.md) run on the worker processes. */
export class AsyncJobsConfig {
  /** Jobs one worker process runs at a time. */
  @Max(1000)
  @Min(1)
  @IsInt()
  concurrency = 10;

  /** Jobs all workers together run at a time (0: no cap beyond each worker's). Redis mode only. */
  @Max(100_000)
  @Min(0)
  @IsInt()
  global_concurrency = 0;

  /** One job's inference call is cancelled after this long and the job fails with 504. */
  @Matches(POSITIVE_DURATION_PATTERN, { message: 'must be a duration greater than zero such as 10m' })
  job_timeout = '10m';

  /**
   * Redis mode: a worker's lock on a running job lasts this long and is renewed every half of it; the stalled-job
   * check runs at the same interval. A job whose worker died (SIGKILL, crash, lost network) goes back to the queue
   * for another worker after about one to two times this.
   */
  @Matches(POSITIVE_DURATION_PATTERN, { message: 'must be a duration greater than zero such as 30s' })
  lock_duration = '30s';
}

/** Outgoing webhook deliveries (`/api/webhooks`, docs/webhooks.md). */
export class WebhooksConfig {
  /** Attempts per delivery, the first included; between them the wait doubles from `retry_backoff_initial`. */
  @Max(20)
  @Min(1)
  @IsInt()
  max_attempts = 6;

  @Matches(POSITIVE_DURATION_PATTERN, { message: 'must be a duration greater than zero such as 1s' })
  retry_backoff_initial = '1s';

  /** One delivery attempt gives up after this long. */
  @Matches(POSITIVE_DURATION_PATTERN, { message: 'must be a duration greater than zero such as 10s' })
  delivery_timeout = '10s';
}

export const REDIS_FAILURE_MODES = ['closed', 'open'] as const;
export type RedisFailureMode = (typeof REDIS_FAILURE_MODES)[number];

/** Budgets and rate limits on the request path (docs/governance.md). */
export class GovernanceConfig {
  /**
   * When the shared counters (Redis) do not answer: `closed` refuses governed requests with 503
   * `gateway_limits_unavailable`; `open` lets them through and counts them in this process until Redis is back.
   */
  @IsIn(REDIS_FAILURE_MODES)
  redis_failure_mode: RedisFailureMode = 'closed';

  /** How long a counter call may take before the failure mode applies (a governed request never hangs on Redis). */
  @Matches(/^[1-9]\d*(ms|s)$/, { message: 'must be a duration in ms or s such as 250ms' })
  counter_timeout = '500ms';

  /**
   * On Redis, far from a limit, each replica reserves a share of the counter and checks its requests against it in
   * process (docs/governance.md, "Counter leases"); off: every check is a Redis script run. Read at start.
   */
  @IsBoolean()
  counter_leases = true;
}

/**
 * The price table behind `usage.cost`: the bundled `@pydantic/genai-prices` data, used offline by default. With
 * `refresh` on, newer data is downloaded at start and every `refresh_interval`; a failed download keeps the table.
 */
export class PricingConfig {
  @IsBoolean()
  refresh = false;

  @Matches(POSITIVE_DURATION_PATTERN, { message: 'must be a duration greater than zero such as 24h' })
  refresh_interval = '24h';

  /** Where refreshed data comes from (the package's own data file on GitHub; a mirror for closed networks). */
  @IsUrl({ require_tld: false, require_protocol: true, protocols: ['http', 'https'] })
  refresh_url = 'https://raw.githubusercontent.com/pydantic/genai-prices/main/prices/new_data/v2/data.json';
}

/**
 * OpenTelemetry traces of the inference plane (docs/observability.md), exported over OTLP/HTTP (JSON). Off while
 * `endpoint` is unset; then no tracer exists and a request pays one null check.
 */
export class OtelConfig {
  /** The collector's OTLP/HTTP base URL; spans are posted to `<endpoint>/v1/traces`. */
  @IsOptional()
  @IsUrl({ require_tld: false, require_protocol: true, protocols: ['http', 'https'] })
  endpoint?: string;

  /** Headers sent with every export (an API key of the collector): name to SecretValue (plain, env., vault.). */
  @IsOptional()
  @IsObject()
  headers?: Record<string, string>;

  /** The `service.name` resource attribute. */
  @IsString()
  @MinLength(1)
  service_name = 'ai-gateway';

  /** Finished spans wait at most this long before their batch is exported. */
  @Matches(POSITIVE_DURATION_PATTERN, { message: 'must be a duration greater than zero such as 5s or 500ms' })
  export_interval = '5s';

  /** One export may take this long before it is abandoned (its spans are lost). */
  @Matches(POSITIVE_DURATION_PATTERN, { message: 'must be a duration greater than zero such as 10s' })
  export_timeout = '10s';

  /** Finished spans held while waiting for an export; beyond this new spans are dropped. */
  @Max(1_000_000)
  @Min(1)
  @IsInt()
  max_queue_size = 2048;
}

/** The A2A data plane (docs/agents.md). Read per call. */
export class AgentsConfig {
  /**
   * A relayed stream whose agent sends nothing (not even a keep-alive comment) for this long ends with a 504
   * `upstream_timeout` event, as a stalled inference stream does. `0s`: no limit (agents may think for a long time).
   */
  @Matches(DURATION_PATTERN, { message: 'must be a duration such as 5m, or 0s for no limit' })
  stream_stall_timeout = '0s';
}

/** The dashboard's live channel, `GET /ws` (docs/live-channel.md). */
export class LiveConfig {
  /**
   * Bytes a subscriber may leave unread on its socket; past it the subscriber is dropped with close code 1013 rather
   * than buffered without bound.
   */
  @Max(1024 * 1024 * 1024)
  @Min(1)
  @IsInt()
  max_buffered_bytes = 1024 * 1024;

  /** A ping goes out this often; a peer that has not answered the previous ping by then is terminated. */
  @Matches(POSITIVE_DURATION_PATTERN, { message: 'must be a duration greater than zero such as 30s' })
  ping_interval = '30s';

  /** Open connections one replica accepts; one more is refused with 503 before the upgrade. */
  @Max(1_000_000)
  @Min(1)
  @IsInt()
  max_connections = 1000;
}

/** The web dashboard the gateway serves under `/ui/` (docs/dashboard.md). Read at start. */
export class UiConfig {
  /** Serve the built dashboard at `/ui/` (and send `/` there); off: `/ui/` is 404 and `/` goes to `/docs`. */
  @IsBoolean()
  enabled = true;
}

/** The plugin chain around inference requests (docs/plugins.md). */
export class PluginsConfig {
  /** A hook whose promise takes longer is skipped for that request (logged, counted in metrics). */
  @Matches(POSITIVE_DURATION_PATTERN, { message: 'must be a duration greater than zero such as 250ms' })
  hook_timeout = '250ms';

  /**
   * Whether an answer a plugin gave (a cache hit) counts as a request in the virtual key's request rate limits. It is
   * never charged to budgets or token limits.
   */
  @IsBoolean()
  cache_hits_count_requests = true;

  /**
   * Settings per plugin name, `{ enabled?, order?, config? }`, over each plugin's defaults; `PUT /api/plugins/{name}`
   * overrides them. Checked as each plugin registers at start-up.
   */
  @IsOptional()
  @IsObject()
  settings?: Record<string, unknown>;
}

/**
 * The whole gateway configuration. Property names are the config file's keys (snake_case); the keys that come only
 * from flags or the environment (host, port, app_dir, role, database_url, redis_url, vault_*) sit beside them so the
 * rest of the code reads one object.
 */
export class GatewayConfig {
  @IsIn(EDITIONS)
  edition: Edition = 'oss';

  @IsOptional()
  @IsString()
  @MinLength(8)
  setup_token?: string;

  @ValidateNested()
  @Type(() => AuthConfig)
  auth_config: AuthConfig = new AuthConfig();

  /** 32 bytes, base64 or hex. Generated into the app dir on first start when absent. */
  @IsOptional()
  @IsString()
  encryption_key?: string;

  @IsOptional()
  @IsUrl({ require_tld: false, require_protocol: true, protocols: ['http', 'https'] })
  public_base_url?: string;

  @IsIn(LOG_LEVELS)
  log_level: LogLevel = 'info';

  /** Bytes of log output held for a slow reader of stdout; beyond it new lines are dropped and counted. */
  @Max(1024 * 1024 * 1024)
  @Min(16 * 1024)
  @IsInt()
  log_max_buffered_bytes = 4 * 1024 * 1024;

  @ValidateNested()
  @Type(() => LimitsConfig)
  limits: LimitsConfig = new LimitsConfig();

  @ValidateNested()
  @Type(() => OutboundConfig)
  outbound: OutboundConfig = new OutboundConfig();

  @ValidateNested()
  @Type(() => AppendLogConfig)
  append_log: AppendLogConfig = new AppendLogConfig();

  @ValidateNested()
  @Type(() => InferenceConfig)
  inference: InferenceConfig = new InferenceConfig();

  @ValidateNested()
  @Type(() => HttpConfig)
  http: HttpConfig = new HttpConfig();

  @ValidateNested()
  @Type(() => AsyncJobsConfig)
  async_jobs: AsyncJobsConfig = new AsyncJobsConfig();

  @ValidateNested()
  @Type(() => WebhooksConfig)
  webhooks: WebhooksConfig = new WebhooksConfig();

  @ValidateNested()
  @Type(() => GovernanceConfig)
  governance: GovernanceConfig = new GovernanceConfig();

  @ValidateNested()
  @Type(() => PricingConfig)
  pricing: PricingConfig = new PricingConfig();

  @ValidateNested()
  @Type(() => OtelConfig)
  otel: OtelConfig = new OtelConfig();

  /**
   * Providers and keys declared in the file (`providers: { <id>: { base_url?, network_config?, keys: [...] } }`),
   * validated by the inference module's catalog; they show `source: "config"` and are read-only through the API.
   */
  @IsOptional()
  providers?: Record<string, unknown>;

  @ValidateNested()
  @Type(() => LogsConfig)
  logs: LogsConfig = new LogsConfig();

  @ValidateNested()
  @Type(() => PluginsConfig)
  plugins: PluginsConfig = new PluginsConfig();

  @ValidateNested()
  @Type(() => McpConfig)
  mcp: McpConfig = new McpConfig();

  @ValidateNested()
  @Type(() => AccessProfilesConfig)
  access_profiles: AccessProfilesConfig = new AccessProfilesConfig();

  @ValidateNested()
  @Type(() => AgentHistoryConfig)
  agent_history: AgentHistoryConfig = new AgentHistoryConfig();

  @ValidateNested()
  @Type(() => AuditLogsConfig)
  audit_logs: AuditLogsConfig = new AuditLogsConfig();

  @ValidateNested()
  @Type(() => AgentsConfig)
  agents: AgentsConfig = new AgentsConfig();

  @ValidateNested()
  @Type(() => LiveConfig)
  live: LiveConfig = new LiveConfig();

  @ValidateNested()
  @Type(() => UiConfig)
  ui: UiConfig = new UiConfig();

  // --- process options (flags and environment only) ---
  @IsString()
  host = '127.0.0.1';

  @Max(65535)
  @Min(0)
  @IsInt()
  port = 8080;

  @IsString()
  app_dir = './data';

  @IsIn(ROLES)
  role: ProcessRole = 'all';

  @IsOptional()
  @Matches(/^postgres(ql)?:\/\//, { message: 'must be a postgres:// URL' })
  database_url?: string;

  @IsOptional()
  @Matches(/^rediss?:\/\//, { message: 'must be a redis:// URL' })
  redis_url?: string;

  /**
   * Parallel query in the gateway's Postgres sessions. Off by default: its queries are index scans and rollup reads
   * of a few ms, and a parallel worker is a process started per query (tens of ms on small hosts, more than the query)
   * that competes for the cores the gateway needs when both share a machine (docs/logs.md, "Performance").
   */
  @IsBoolean()
  database_parallel_query = false;

  /** Prefix for every Redis key the gateway writes (queues, counters, circuits). */
  @IsString()
  redis_prefix = 'gw';

  @IsOptional()
  @IsUrl({ require_tld: false, require_protocol: true, protocols: ['http', 'https'] })
  vault_addr?: string;

  @IsOptional()
  @IsString()
  vault_token?: string;

  /** The file the config was read from, when any. */
  @IsOptional()
  @IsString()
  config_path?: string;
}
