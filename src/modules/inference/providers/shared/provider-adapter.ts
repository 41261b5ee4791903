import type { ErrorReason } from '../../../../core/errors/error-catalogue.js';
import type { ProviderId } from '../provider-ids.js';
import type { Cancellation } from '../../../../core/outbound/cancellation.js';

/**
 * The translation seam of the inference plane. An adapter is pure: it builds the upstream call, parses the upstream
 * answer (unary, stream, error) and maps usage, with no I/O of its own. The router owns keys, retries and fallbacks;
 * the outbound client owns sockets. Adding a provider is one adapter file and one line in `adapter-registry.ts`.
 *
 * Canonical shapes are OpenAI's wire shapes (the unified /v1 API speaks them in and out), as plain JSON objects.
 */

/** What a /v1 route asks for. */
export type InferenceKind =
  | 'chat'
  | 'completions'
  | 'responses'
  | 'embeddings'
  | 'rerank'
  | 'count_tokens'
  | 'speech'
  | 'transcription'
  | 'image_generation'
  | 'image_edit'
  | 'image_variation'
  | 'ocr';

/** A JSON object as parsed from a wire body. */
export type Json = Record<string, unknown>;

/** The contract's Cost object (gateway-api.md "Usage and cost objects"); all USD. */
export interface Cost {
  input_tokens_cost?: number;
  output_tokens_cost?: number;
  reasoning_tokens_cost?: number;
  citation_tokens_cost?: number;
  search_queries_cost?: number;
  request_cost?: number;
  total_cost?: number;
}

/** The contract's Usage object. `prompt_tokens` includes cache read and write tokens. */
export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details?: {
    text_tokens?: number;
    audio_tokens?: number;
    image_tokens?: number;
    cached_read_tokens?: number;
    cached_write_tokens?: number;
  };
  completion_tokens_details?: {
    text_tokens?: number;
    accepted_prediction_tokens?: number;
    audio_tokens?: number;
    citation_tokens?: number;
    /** Deprecated mirror of tool_usage.web_search.num_requests. */
    num_search_queries?: number;
    reasoning_tokens?: number;
    image_tokens?: number;
    rejected_prediction_tokens?: number;
  };
  tool_usage?: { web_search?: { num_requests: number } };
  /** Set by the adapter only when the provider sent a cost (it wins over the price table). */
  cost?: Cost;
}

/** Provider-specific key settings (issue: Azure deployments; Bedrock and Vertex come later on the same seam). */
export interface AzureKeySettings {
  endpoint: string;
  api_version?: string;
  /** Requested model → deployment name. A model without an entry uses its own name as the deployment. */
  deployments: Record<string, string>;
}

/** A Bedrock key's settings: AWS credentials for SigV4, or none (then `value` is a Bedrock API key, sent as Bearer). */
export interface BedrockKeySettings {
  region: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  sessionToken?: string;
}

/** A Vertex key's settings: the service-account JSON whose JWT grant yields the access token. */
export interface VertexKeySettings {
  projectId: string;
  region: string;
  serviceAccountJson: string;
}

/** One key, secrets resolved, as an adapter needs it to authenticate a call. */
export interface KeyCredentials {
  id: string;
  name: string;
  /** The API key ('' when the provider needs none, e.g. a local vLLM). */
  value: string;
  azure?: AzureKeySettings;
  bedrock?: BedrockKeySettings;
  vertex?: VertexKeySettings;
}

/**
 * The only I/O an adapter may do, and only in `authorize`: a token exchange (Vertex's JWT grant, GitHub Copilot's
 * token) through the gateway's outbound client and its address policy.
 */
export interface AdapterIo {
  post(
    url: string,
    headers: Record<string, string>,
    body: string,
    signal?: AbortSignal | Cancellation,
  ): Promise<{ status: number; body: string }>;
  /** A GET exchange (GitHub Copilot's token endpoint, a task's status). */
  get(
    url: string,
    headers: Record<string, string>,
    signal?: AbortSignal | Cancellation,
  ): Promise<{ status: number; body: string }>;
  /** Epoch ms (a test clock in tests). */
  now(): number;
}

/**
 * What `settle` needs to wait for a provider's task (Replicate's predictions, Runway's tasks): the I/O to poll with,
 * the caller's cancellation (polling stops with it) and the attempt's deadline, after which the task is given up.
 */
export interface TaskWait {
  io: AdapterIo;
  signal: Cancellation;
  /** Epoch ms on `io.now()`'s clock: the attempt's start plus the provider's request timeout. */
  deadline: number;
}

/** Where one attempt goes. */
export interface ProviderTarget {
  provider: ProviderId;
  /** The provider's `base_url` override, else the adapter's default; no trailing slash. */
  baseUrl: string;
  /** The provider's `extra_headers`, resolved; the adapter adds them to every call. */
  extraHeaders: Record<string, string>;
  key: KeyCredentials;
  /** Model id sent upstream (after the key's alias, if one matched). */
  model: string;
}

export interface UpstreamCall {
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  body?: string;
  /**
   * Bytes sent instead of `body` (a multipart upload: transcription, image edit). A separate member so that every
   * JSON call keeps `body` as text.
   */
  binaryBody?: Buffer;
}

/** A provider's failure, classified where it is understood. */
export interface ProviderError {
  /** HTTP status to relay (the provider's own; 5xx for an in-stream failure). */
  status: number;
  message: string;
  /** The provider's own error type (`rate_limit_error`, `RESOURCE_EXHAUSTED`, ...), kept for the caller. */
  type?: string;
  code?: string;
  param?: string;
  reason: ErrorReason;
  /** The provider's retry hint in ms, unclamped (retry-after-ms, Retry-After seconds or date, Gemini RetryInfo). */
  retryAfterMs?: number;
  /** Usage the provider billed although the request failed. */
  billedUsage?: Usage;
}

/** One output of a stream decoder. */
export type StreamOutput =
  /** A `chat.completion.chunk` (chat) or `text_completion` chunk (completions); usage, when present, is contract Usage. */
  | {
      kind: 'chunk';
      chunk: Json;
      usage?: Usage;
      /**
       * The chunk's JSON text as the provider sent it, when it can be relayed unchanged (an OpenAI-compatible chunk
       * without usage or error): the writer may send these bytes instead of serialising `chunk` again.
       */
      raw?: string;
      /**
       * The usage the provider reported as it opened the answer (Anthropic's message_start: input and cache tokens),
       * not the final usage: the `/anthropic` format's message_start repeats it.
       */
      opening?: Usage;
    }
  /** A typed Responses API event (`response.output_text.delta`, ...); usage comes with `response.completed`. */
  | { kind: 'event'; event: string; data: Json; usage?: Usage }
  /** The provider failed mid-stream. */
  | { kind: 'error'; error: ProviderError };

/**
 * Turns upstream stream bytes (already decoded to text, any split) into canonical outputs. `push` may return none;
 * `end` flushes what is left and reports a stream that ended without its terminator as an error output.
 */
export interface StreamDecoder {
  push(text: string): StreamOutput[];
  /** Set by decoders of a binary framing (Bedrock's event stream): the responder hands them the bytes instead. */
  pushBytes?(bytes: Uint8Array): StreamOutput[];
  end(): StreamOutput[];
}

/** A model a provider lists. */
export interface ListedModel {
  id: string;
  owned_by?: string;
  created?: number;
  /** What the provider says about the model, when its list says it (the provider-format listings repeat it). */
  display_name?: string;
  /** The provider's own operation names (Gemini's generation methods, Cohere's endpoints). */
  methods?: string[];
  input_token_limit?: number;
  output_token_limit?: number;
}

/** A model some key of `provider` lists; `ref` is `<provider>/<model>`, as /v1 takes it (the catalog's listing). */
export interface CatalogModel extends ListedModel {
  provider: ProviderId;
  ref: string;
}

/**
 * The field under which `parseResponse` gets a unary answer that is a top-level JSON array (Hugging Face's
 * feature-extraction answers a bare list of vectors): `{ [TOP_LEVEL_ARRAY]: [...] }`.
 */
export const TOP_LEVEL_ARRAY = 'array';

/** The parse of a unary success: the canonical (OpenAI-shaped) body and its usage in contract form. */
export interface ParsedResponse {
  body: Json;
  usage?: Usage;
  /** The model the provider says answered, when it differs from the one asked (server-side fallback). */
  answeredModel?: string;
  /**
   * An answer that is not JSON (speech audio, a transcript as text, SRT or VTT), relayed as is with its content-type;
   * `body` then holds what the log keeps of it (a summary, never the bytes).
   */
  binary?: MediaAnswer;
}

/** An upstream answer as bytes and their content-type. */
export interface MediaAnswer {
  contentType: string;
  bytes: Buffer;
}

export interface ProviderAdapter {
  /** Request kinds this adapter speaks natively. The router converts `responses` to `chat` when it is absent. */
  readonly kinds: ReadonlySet<InferenceKind>;
  /**
   * For an adapter that has `responses` for some models only (OpenCode): true when `model` is served without
   * `/responses`, so the router bridges a Responses request to it through chat as it does for a chat-only provider.
   */
  bridgesResponses?(model: string): boolean;
  /**
   * Media kinds the adapter streams (speech as OpenAI's `stream_format: "sse"` events). Absent: none; a streamed
   * media request to such a provider is a 400 naming `stream_format`.
   */
  readonly mediaStreams?: ReadonlySet<InferenceKind>;
  /** Base URL used when the provider has no `base_url` override (undefined: self-hosted, base required). */
  defaultBaseUrl(provider: ProviderId): string | undefined;

  /** `body` is the caller's OpenAI-shaped body with `model` already set to `target.model` and gateway fields removed. */
  buildRequest(kind: InferenceKind, body: Json, target: ProviderTarget, stream: boolean): UpstreamCall;
  /**
   * Authenticates a built call when that needs more than headers from the key (SigV4 signing, an OAuth token from
   * a cached exchange). Called for every call, model listings included; a failure throws a GatewayException.
   */
  authorize?(call: UpstreamCall, target: ProviderTarget, io: AdapterIo): Promise<UpstreamCall>;
  parseResponse(kind: InferenceKind, body: Json, target: ProviderTarget): ParsedResponse;
  /**
   * The unary answer of a media kind (`MEDIA_ANSWER_KINDS`: speech, transcription), whatever its content-type: audio
   * bytes, a transcript as text, or JSON. Absent: the adapter serves no such kind.
   */
  parseMediaResponse?(kind: InferenceKind, answer: MediaAnswer, target: ProviderTarget): ParsedResponse;
  /**
   * For providers whose unary answer is a task to poll: called after every unary 2xx parse, it polls the task
   * (through `wait.io`, bounded by `wait.deadline`, stopped by `wait.signal`) and returns the final canonical answer.
   * Such an adapter's `parseResponse` may return the provider's task as is; `settle` translates it once finished.
   * A failed task throws a GatewayException (502 `provider_server_error`), the deadline 504 `provider_timeout`.
   */
  settle?(kind: InferenceKind, parsed: ParsedResponse, target: ProviderTarget, wait: TaskWait): Promise<ParsedResponse>;
  streamDecoder(kind: InferenceKind, target: ProviderTarget): StreamDecoder;
  /** `body` is the raw error body text (may be empty or not JSON). */
  parseError(status: number, headers: Record<string, string | string[] | undefined>, body: string): ProviderError;

  buildListModels(target: ProviderTarget): UpstreamCall;
  parseListModels(body: Json): ListedModel[];
}
