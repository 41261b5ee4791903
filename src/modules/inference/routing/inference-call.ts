import type { VirtualKeyMcpGrant } from '../../../core/auth/principal.js';
import type { GatewayException } from '../../../core/errors/gateway.exception.js';
import type { Admission, PricingOverrideSet } from '../../governance/index.js';
import type { ProviderId } from '../providers/provider-ids.js';
import type { Cancellation } from '../../../core/outbound/cancellation.js';
import type { RequestTrace } from '../telemetry/inference-tracing.service.js';
import type { OutboundResponse } from '../../../core/outbound/outbound-http.service.js';
import type {
  InferenceKind,
  Json,
  MediaAnswer,
  ParsedResponse,
  StreamDecoder,
  StreamOutput,
  Usage,
} from '../providers/shared/provider-adapter.js';
import type { CallOrigin } from '../logs/request-log.recorder.js';
import type { PluginRun } from '../../plugins/index.js';
import type { KeyPin } from './key-selector.js';
import type { RoutingInfo } from './routing-info.js';

/** The `extra_fields.request_type` of each kind. */
export const REQUEST_TYPES: Record<InferenceKind, string> = {
  chat: 'chat_completion',
  completions: 'text_completion',
  responses: 'responses',
  embeddings: 'embedding',
  rerank: 'rerank',
  count_tokens: 'count_tokens',
  speech: 'speech',
  transcription: 'transcription',
  image_generation: 'image_generation',
  image_edit: 'image_edit',
  image_variation: 'image_variation',
  ocr: 'ocr',
};

export interface InferenceCall {
  kind: InferenceKind;
  /** The caller's body, validated; `model`, `fallbacks` and `stream` are read from it. */
  body: Json;
  stream: boolean;
  pin?: KeyPin;
  /** A provider key the caller passed through (`inference.allow_direct_keys`). */
  directKey?: string;
  /** Aborted when the client goes away (or the gateway shuts down mid-stream). */
  signal: Cancellation;
  /** The virtual key the request was authenticated with (metrics label, span attribute, routing rule scopes). */
  virtualKey?: {
    readonly id: string;
    readonly name: string;
    readonly team_id?: string | null;
    readonly customer_id?: string | null;
    /** Its MCP grants (the tool catalog serves them). */
    readonly mcp_grants?: readonly VirtualKeyMcpGrant[];
  };
  /** The request's headers and query parameters, as routing rules read them (`headers`, `params`). */
  headers?: Record<string, string | string[] | undefined>;
  query?: unknown;
  /** Where routing stands; the router updates it, so a failed request still tells its retries. */
  progress: RouteProgress;
  /** The request's span, when traces are on (`otel.endpoint`); undefined costs nothing further. */
  trace?: RequestTrace;
  /** Set when the request is logged: the router appends each model of the chain that failed. */
  chain?: ChainFailure[];
  /** Set when the request is logged: who sent it and when. */
  log?: CallOrigin;
  /** The pricing overrides as the request started (the cost reads them synchronously). */
  pricing?: PricingOverrideSet;
  /** The plugin chain's run, when some enabled plugin has a hook; undefined costs nothing further. */
  plugins?: PluginRun;
}

/** One model of the fallback chain that was tried and failed (the request then fell back, or failed). */
export interface ChainFailure {
  fallbackIndex: number;
  routing: RoutingInfo;
  /** The key of the last attempt, when one was picked. */
  keyId?: string;
  retries: number;
  /** performance.now() when the model's first attempt started, and when its failure was known. */
  startedAt: number;
  endedAt: number;
  error: GatewayException;
}

/** A provider exchange as it went over the wire (bodies only: headers, which carry keys, never). */
export interface RawExchange {
  request?: string;
  response?: string;
}

/** Routing so far: retries (backoff waits), time waiting on providers, the index in `[model, ...fallbacks]` tried. */
export interface RouteProgress {
  retries: number;
  upstreamLatencyMs: number;
  fallbackIndex: number;
}

/** A served request: the attempt that answered and what it answered. */
export interface RoutedResult {
  routing: RoutingInfo;
  /** 0 for the primary model, else the 1-based index of the fallback that served. */
  fallbackIndex: number;
  retries: number;
  /** Time spent waiting on providers, summed over attempts. */
  upstreamLatencyMs: number;
  provider: ProviderId;
  /** The kind the provider was called with (`chat` when a Responses request was bridged). */
  upstreamKind: InferenceKind;
  bridged: boolean;
  /** The model used for pricing: the alias's canonical name when it has one, else the model sent. */
  pricedModel: string;
  keyName: string;
  keyId: string;
  /** performance.now() when the serving model's first attempt started; retries of that model alone. */
  modelStartedAt: number;
  modelRetries: number;
  unary?: ParsedResponse;
  stream?: { upstream: OutboundResponse; decoder: StreamDecoder };
  /** With `logs.capture_raw`: the body sent upstream and the unary answer's body as received. */
  raw?: RawExchange;
  /** The serving model's reservation at its governance levels, settled when the answer is over. */
  admission?: Admission;
}

/** A unary answer as the caller gets it; `binary` (audio, a text transcript) is sent instead of `body`. */
export interface ServedAnswer {
  body: Json;
  headers: Record<string, string>;
  usage: Usage | undefined;
  binary?: MediaAnswer;
}

/** How a stream ended, as its writer saw it. */
export interface StreamEnd {
  /** 200, the failure's status, or 499 when the client went away. */
  status: number;
  /** The final usage, priced by the tap as it was written. */
  usage: Usage | undefined;
  ttftMs: number | undefined;
  failure: GatewayException | undefined;
  cancelled: boolean;
}

/** What a stream writer is given by the completion: the pricing of usage chunks and the log row's capture. */
export interface StreamTap {
  price(usage: Usage): Usage | undefined;
  /** Each output written, for the log row's content (undefined when nothing is captured). */
  see: ((output: StreamOutput) => void) | undefined;
}
