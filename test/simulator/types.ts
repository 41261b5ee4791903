import type { UsageNumbers } from './answer.js';
import type { IncomingHttpHeaders } from 'node:http';

/** Hosts of the OpenAI-like providers with their own rules (token exchanges, per-model surfaces, SigV4). */
export const MORE_PROVIDER_FAMILIES = ['databricks', 'copilot', 'opencode', 'mantle', 'huggingface'] as const;
export type MoreProviderFamily = (typeof MORE_PROVIDER_FAMILIES)[number];
/** The wire-format families the simulator speaks, each under its own path prefix (`/openai`, `/azure`, ...). */
export type FamilyName =
  | 'openai'
  | 'azure'
  | 'anthropic'
  | 'gemini'
  | 'cohere'
  | 'bedrock'
  | 'vertex'
  | 'elevenlabs'
  | 'replicate'
  | 'runway'
  | 'runware'
  | 'sarvam'
  | 'mistral'
  | MoreProviderFamily;
export const FAMILY_NAMES: readonly FamilyName[] = [
  'openai',
  'azure',
  'anthropic',
  'gemini',
  'cohere',
  'bedrock',
  'vertex',
  'elevenlabs',
  'replicate',
  'runway',
  ...MORE_PROVIDER_FAMILIES,
  'runware',
  'sarvam',
  'mistral',
];

/** One request as the simulator received it (`GET /_sim/requests`, `sim.requests()`). */
export interface CapturedRequest {
  /** 1, 2, 3, ... in arrival order since the last reset. */
  seq: number;
  method: string;
  /** Full path without the query, family prefix included (`/openai/v1/chat/completions`). */
  path: string;
  query: Record<string, string>;
  /** As Node parsed them: lower-case names. */
  headers: IncomingHttpHeaders;
  /** The parsed JSON body; the raw text when it was not JSON; undefined when empty. */
  body: unknown;
  /** The credential the family's auth scheme carried (Bearer token, api-key, x-api-key, x-goog-api-key / ?key=). */
  key?: string;
  family?: FamilyName;
  /** `body.model`, else the model or deployment named in the path. */
  model?: string;
  stream: boolean;
  /** Arrival, epoch ms with sub-ms precision (spacing between retries is `b.time - a.time`). */
  time: number;
  /** Id of the scenario that answered, if one did. */
  scenario?: string;
  /** Status sent (0 when the socket was dropped before a status line). */
  status?: number;
  /** The client closed the connection before the answer was complete (a gateway aborting its upstream call). */
  client_aborted?: boolean;
  /** The fault mix's fault this request got (`sim.faultMix`), if any. */
  fault?: 'rate_limit' | 'server_error' | 'overloaded' | 'reset' | 'stall' | 'broken_stream';
  /**
   * The usage of the answer the simulator built (input with cache reads and writes, output with reasoning), set when
   * a normal answer (or a fault that writes part of one) was rendered. Sent to the client in full only when
   * `completed`.
   */
  usage?: { input_tokens: number; output_tokens: number; total_tokens: number };
  /** The response was written to its end (set when the connection's response closes; a drop or stall is false). */
  completed?: boolean;
}

/** Usage knobs of a normal answer. Every field is optional; defaults come from one token per word. */
export interface UsageKnobs {
  /** Uncached input tokens (default: words of all text in the request). */
  input_tokens?: number;
  /** Visible output tokens (default: words of the answer text, or of each tool call's name and arguments). */
  output_tokens?: number;
  cached_read_tokens?: number;
  cached_write_tokens?: number;
  reasoning_tokens?: number;
  web_search_requests?: number;
  citation_tokens?: number;
  /** A number is OpenRouter's `usage.cost`; an object is Perplexity's `usage.cost`. */
  cost?: number | Record<string, number>;
}

/** SSE line endings: `crlf` separates events with `\r\n\r\n` (Gemini's default), `lf` with `\n\n` (everyone else). */
export type Framing = 'lf' | 'crlf';

/** Knobs of a normal answer, accepted by `{ ok: true }` and by every fault that ends in a normal answer. */
export interface AnswerKnobs {
  /** Replaces the echo text. */
  text?: string;
  usage?: UsageKnobs;
  /** The model the answer claims (a provider-side fallback); default: the requested one. */
  model?: string;
  framing?: Framing;
  /**
   * The answer is these tool calls (finish `tool_calls`, no text) whatever the request says, offered tools or not:
   * `arguments` is an object (default `{}`). Ids are generated.
   */
  tool_calls?: Array<{ name: string; arguments?: Record<string, unknown> }>;
  /** Internal (set by the server, never from a scenario): receives the usage the answer reports. */
  report?: (usage: UsageNumbers) => void;
}

export type RetryHintKind =
  'retry-after-seconds' | 'retry-after-date' | 'retry-after-ms' | 'gemini-retry-info' | 'none';

interface StepCommon {
  /** Wait this long before sending the status line. */
  delay_ms?: number;
  /** Extra response headers on any step (an answer, a fault, a stream), e.g. a provider's overload signals. */
  headers?: Record<string, string>;
}

/** One step of a scenario's response sequence, as posted to `/_sim/scenarios`. */
export type ResponseStep = StepCommon &
  (
    | { status: number; headers?: Record<string, string>; body?: unknown }
    | ({ ok: true; chunk_delay_ms?: number } & AnswerKnobs)
    | {
        fault: 'rate_limit' | 'overloaded';
        /** Default: openai none, azure retry-after-ms, anthropic retry-after-seconds, gemini gemini-retry-info. */
        hint?: RetryHintKind;
        /** Default 1000. */
        hint_ms?: number;
        message?: string;
        /** Replaces the native code: OpenAI/Azure `code` (`insufficient_quota`), Anthropic `error.type`, Gemini `status`. */
        code?: string;
      }
    | { fault: 'error'; status: number; message?: string; code?: string }
    | ({ fault: 'delay'; delay_ms: number } & AnswerKnobs)
    | ({ fault: 'stall' | 'drop'; after_events?: number; chunk_delay_ms?: number } & AnswerKnobs)
    | ({ fault: 'chunk_delay'; chunk_delay_ms: number } & AnswerKnobs)
    | ({ fault: 'malformed_chunk' | 'stream_error'; after_events?: number; chunk_delay_ms?: number } & AnswerKnobs)
    | { fault: 'empty_200' }
  );

export interface ScenarioMatch {
  family?: FamilyName;
  /** Substring of the request path (family prefix included). */
  path?: string;
  model?: string;
  key?: string;
}

/** `POST /_sim/scenarios` body (or an array of them). */
export interface ScenarioInput {
  match?: ScenarioMatch;
  responses: ResponseStep[];
  /** Cycle through `responses` forever instead of falling through once they are consumed. */
  repeat?: boolean;
}
