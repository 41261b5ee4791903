import type { ErrorResponse } from '../../../core/errors/error-response.js';
import type { InboundFormat } from '../providers/provider-descriptor.js';
import type { InferenceKind, Json, Usage } from '../providers/shared/provider-adapter.js';

/**
 * The seam of the provider-format endpoints (`/anthropic`, `/genai`, `/bedrock`, `/cohere`, `/openai` and the
 * framework prefixes over them). A native request is converted to the canonical (OpenAI-shaped) request the /v1
 * pipeline serves, and the canonical answer is converted back, unary or event by event, so routing, retries,
 * fallbacks, governance, logs and cost are the /v1 ones. A format is pure: no I/O, no Nest.
 */

/** What a native request becomes: the body of a /v1 request of the operation's kind. */
export interface CanonicalRequest {
  /** The OpenAI-shaped body; `model` is `<provider>/<model>` (the format's native provider when none was named). */
  body: Json;
  stream: boolean;
}

/** Bytes of a native stream, in order: SSE text, or binary frames (Bedrock's event stream). */
export type NativeFrame = string | Uint8Array;

/**
 * Turns the canonical stream of one request into the caller's native events. `push` takes each canonical output as
 * the /v1 writer would send it (a `chat.completion.chunk`; usage, when a chunk carries it, is already the contract's
 * priced Usage); `finish` closes a stream that ended well; `error` writes the native in-stream error after a failure.
 */
export interface NativeStreamEncoder {
  /** `content-type` of the stream (`text/event-stream`, `application/vnd.amazon.eventstream`). */
  readonly contentType: string;
  /** `opening`: the usage the provider reported as it opened the answer (the chunk's `opening`), when it did. */
  push(chunk: Json, usage: Usage | undefined, opening?: Usage): NativeFrame[];
  finish(usage: Usage | undefined): NativeFrame[];
  error(response: ErrorResponse): NativeFrame[];
}

/** One native operation (`/anthropic/v1/messages`, `…:generateContent`, `/bedrock/model/{id}/converse`, …). */
export interface NativeOperation {
  /** The /v1 kind it is served as (its log rows' and metrics' request type). */
  readonly kind: InferenceKind;
  /**
   * Validates the native body (a wrong shape throws `GatewayException.validation(<native field>, …)`, which the
   * format's error renderer shapes) and converts it. `params` are the route's path parameters, `query` its query,
   * `headers` the request's (a native header such as `anthropic-beta` may carry over into the canonical body).
   */
  toCanonical(
    body: unknown,
    params: Record<string, string>,
    query: Record<string, string | undefined>,
    headers?: Record<string, string | string[] | undefined>,
  ): CanonicalRequest;
  /**
   * The canonical unary answer (OpenAI-shaped, `usage` already the wire usage) as the native body. `usage` is the
   * contract's priced usage.
   */
  fromCanonical(answer: Json, usage: Usage | undefined, request: CanonicalRequest): Json;
  /** The stream encoder; absent when the native stream is the canonical one (OpenAI chunks and `[DONE]`). */
  streamEncoder?(request: CanonicalRequest): NativeStreamEncoder;
}

/**
 * A provider's native shapes: its error body. The provider a model named without one means (`claude-sonnet-4` on
 * `/anthropic` is `anthropic/claude-sonnet-4`) is the registry's `nativeProviderOf(name)`.
 */
export interface NativeFormat {
  readonly name: InboundFormat;
  /** Any error of the route (auth, validation, routing, provider) in the format's error shape. */
  renderError(response: ErrorResponse): { status: number; headers: Record<string, string>; body: unknown };
}
