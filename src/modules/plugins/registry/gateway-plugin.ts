/**
 * The plugin contract (issue 17 §2): hooks around one inference request, run in a declared order by the plugin chain.
 *
 * The core knows requests only as JSON: the inference module passes its canonical body (OpenAI-shaped, whatever the
 * caller's format) and its canonical stream outputs, so one plugin works for /v1, the provider-format routes and async
 * replays alike.
 *
 * Isolation: a hook that throws (anything but a refusal, which is a thrown GatewayException) or outlives `timeoutMs` is skipped for that request: the
 * request goes on as if the plugin had returned nothing, the failure is logged and counted per plugin. A refusal is a
 * decision, not a failure: the caller gets the GatewayError the plugin chose.
 */

import type { GatewayException } from '../../../core/errors/gateway.exception.js';

export type PluginJson = Record<string, unknown>;

/** The built-in plugins (decisions.md "Config, plugins, cache, live channel"). */
export const BUILTIN_PLUGIN_NAMES = ['logging', 'cache', 'telemetry', 'jsonparser'] as const;

/** One line a plugin wrote about a request; the request's log row keeps them as `plugin_logs`. */
export interface PluginLogEntry {
  plugin: string;
  level: 'debug' | 'info' | 'warn' | 'error';
  message: string;
  /** ms since the request started. */
  at_ms: number;
}

/** What every hook sees of the request. */
export interface PluginRequest {
  readonly requestId: string;
  /** The inference kind (`chat`, `completions`, `responses`, `embeddings`, ...). */
  readonly kind: string;
  /** The canonical, validated body. A pre-request hook may replace it (see PreRequestOutcome.body). */
  readonly body: PluginJson;
  readonly stream: boolean;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly virtualKeyId?: string;
  /** The plugin's own config as set through `/api/plugins/{name}` (validated by the plugin). */
  readonly config: PluginJson;
  /** Scratch space of this plugin for this request, shared by its hooks (e.g. the cache key computed before). */
  readonly state: Map<string, unknown>;
  /** Appends to the request's `plugin_logs`. */
  log(level: PluginLogEntry['level'], message: string): void;
}

/**
 * An answer a pre-request hook gives instead of calling a provider (a cache hit). It goes through the same
 * responder as a provider's answer: the caller's format, the served headers (plus `headers` here), one log row with
 * `cache_hit`, metrics; it is priced at zero and not charged to budgets.
 */
export type PluginAnswer =
  | {
      type: 'unary';
      provider: string;
      model: string;
      body: PluginJson;
      /** The contract Usage the answer reported when it was first served (kept for the log row, cost zeroed). */
      usage?: PluginJson;
      headers?: Record<string, string>;
    }
  | {
      type: 'stream';
      provider: string;
      model: string;
      /**
       * The canonical stream outputs grouped as the original upstream reads produced them: each group is written
       * in one write, so a replay keeps the original chunking.
       */
      groups: unknown[][];
      usage?: PluginJson;
      headers?: Record<string, string>;
    };

export interface PreRequestOutcome {
  /** Replaces the request body for the rest of the chain and the provider call. */
  body?: PluginJson;
  /** Answers the request now; later plugins' pre-request hooks do not run, their post hooks do. */
  answer?: PluginAnswer;
  /** Headers added to the answer whatever serves it (e.g. `x-gateway-cache-status: miss`). */
  headers?: Record<string, string>;
}

/** A unary answer as served (after pricing), as post-response hooks see it. */
export interface PluginResponse {
  readonly status: number;
  readonly provider: string;
  readonly model: string;
  readonly body: PluginJson;
  readonly usage?: PluginJson;
  /** True when a plugin answered (a cache hit), false when a provider did. */
  readonly fromPlugin: boolean;
}

/** A stream as it ended, for `onStreamEnd`. */
export interface PluginStreamEnd {
  readonly status: number;
  readonly provider: string;
  readonly model: string;
  /** The canonical outputs as grouped per upstream read (only when a plugin asked for them: `recordsStream`). */
  readonly groups?: unknown[][];
  readonly usage?: PluginJson;
  readonly failed: boolean;
  readonly fromPlugin: boolean;
}

/** What a plugin is set up with before the config file or `/api/plugins/{name}` say otherwise. */
export interface PluginDefaults {
  /** Default false: a plugin registered without a say acts only once enabled. */
  enabled?: boolean;
  /** Default 100. */
  order?: number;
  config?: PluginJson;
}

export interface GatewayPlugin {
  readonly name: string;
  readonly defaults?: PluginDefaults;
  /** Set when the plugin needs the stream's outputs at its end (`PluginStreamEnd.groups`); costs a copy per chunk. */
  readonly recordsStream?: boolean;
  /**
   * Whether the plugin has anything to do for this request, asked once as it starts, before any hook: a plugin that
   * says no is left out of the request's run, and while no enabled plugin applies no run is built at all (a JSON
   * repair on a request that is not in JSON mode costs nothing). Synchronous and cheap; absent means always.
   */
  appliesTo?(request: PluginRequestShape): boolean;
  /** May rewrite the request, answer it, or refuse it by throwing a GatewayException. */
  onRequest?(request: PluginRequest): PreRequestOutcome | undefined | Promise<PreRequestOutcome | undefined>;
  /** After a unary answer is written; may not change it (the caller already has it). */
  onResponse?(request: PluginRequest, response: PluginResponse): void | Promise<void>;
  /**
   * Each canonical stream output before it is written; may return a replacement (e.g. repaired JSON). Synchronous: a
   * promise is ignored. A replaced `chunk` output leaves out its `raw` text (the writer sends `raw` when present).
   */
  onStreamChunk?(request: PluginRequest, output: unknown): unknown;
  /** After a stream ended (served, failed or cut off). */
  onStreamEnd?(request: PluginRequest, end: PluginStreamEnd): void | Promise<void>;
  /**
   * Checks a config before it is applied (from the config file at start-up, or a `PUT /api/plugins/{name}`): returns
   * (or throws) the 400 to answer, `GatewayException.validation('config.<key>', ...)`, or undefined when it is fine.
   */
  validateConfig?(config: PluginJson): GatewayException | undefined;
}

/** What `appliesTo` sees: the request as it starts. */
export interface PluginRequestShape {
  readonly kind: string;
  readonly stream: boolean;
  readonly body: PluginJson;
}

/** How a plugin is set up: enabled, its order in the chain (lower first), its config. */
export interface PluginSettings {
  name: string;
  enabled: boolean;
  order: number;
  config: PluginJson;
}
