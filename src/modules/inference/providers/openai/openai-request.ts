import type { InferenceKind, Json, ProviderTarget } from '../shared/provider-adapter.js';
import { chatPromptAsResponsesInput } from '../../translation/chat-to-responses-input.js';
import { asObject, copyWithout } from '../shared/wire-json.js';

/** Set per call by `openAiRequestBody`, never copied from the caller's body. */
const STREAM_FLAGS: ReadonlySet<string> = new Set(['stream', 'stream_options']);

/** How a provider of the OpenAI family takes its key. */
export type AuthStyle = 'bearer' | 'api-key';

/**
 * Headers of one upstream call: the provider's `extra_headers` first, then ours, names lower-cased so ours win over
 * an extra header of the same name (a configured header can add, never replace, the key). An empty key value (a
 * local vLLM or Ollama) sends no credential at all.
 */
export function upstreamHeaders(
  target: ProviderTarget,
  auth: AuthStyle,
  call: { body: boolean; stream: boolean },
): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(target.extraHeaders)) headers[name.toLowerCase()] = value;
  if (call.body) headers['content-type'] = 'application/json';
  headers.accept = call.stream ? 'text/event-stream' : 'application/json';
  const key = target.key.value;
  if (key) {
    if (auth === 'bearer') headers.authorization = `Bearer ${key}`;
    else headers['api-key'] = key;
  }
  return headers;
}

/**
 * The caller's OpenAI-shaped body as sent upstream: `model` is the target's, and the stream flags are exactly what
 * this call does. Chat and completions streams always ask for usage (`stream_options.include_usage`) so the
 * gateway can meter them; the router decides whether the caller sees the usage-only chunk.
 */
export function openAiRequestBody(
  kind: InferenceKind,
  body: Json,
  model: string,
  stream: boolean,
  options: { streamUsage?: boolean } = {},
): Json {
  const out = copyWithout(
    kind === 'count_tokens' && body.messages !== undefined ? chatPromptAsResponsesInput(body) : body,
    STREAM_FLAGS,
  );
  out.model = model;
  if (stream && (kind === 'chat' || kind === 'completions')) {
    out.stream = true;
    if (options.streamUsage !== false) {
      out.stream_options = { ...asObject(body.stream_options), include_usage: true };
    }
  } else if (stream && kind === 'responses') {
    out.stream = true;
    if (body.stream_options !== undefined) out.stream_options = body.stream_options;
  }
  return out;
}
