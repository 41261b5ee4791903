import { GatewayException } from '../../../../core/errors/gateway.exception.js';
import { nowSeconds } from '../shared/native-adapter-parts.js';
import type { Json, ParsedResponse, ProviderTarget, Usage } from '../shared/provider-adapter.js';
import { taskFailed } from '../shared/task-polling.js';
import { asObject, asString, isJsonObject } from '../shared/wire-json.js';

/**
 * Replicate's prediction wire format: the create call of a model (`owner/name`, or `owner/name:version` for a pinned
 * version), the model input built from an OpenAI images or chat body, and a finished prediction read back as the
 * OpenAI answer.
 */

const invalid = (param: string, message: string) => GatewayException.validation(param, message);

/** Prediction statuses that are not terminal. */
export const PENDING_PREDICTION: ReadonlySet<string> = new Set(['starting', 'processing']);

/** The aspect ratios Replicate's image models take (`aspect_ratio`); other sizes go as `width` and `height`. */
const ASPECT_RATIOS: ReadonlySet<string> = new Set([
  '1:1',
  '16:9',
  '9:16',
  '21:9',
  '9:21',
  '3:2',
  '2:3',
  '4:3',
  '3:4',
  '5:4',
  '4:5',
]);
/** OpenAI sizes whose ratio is not exact: the nearest one Replicate takes. */
const NEAREST_RATIO: Readonly<Record<string, string>> = { '1792x1024': '16:9', '1024x1792': '9:16' };

/** Path and body of the create call: `POST /v1/models/{owner}/{name}/predictions`, or `/v1/predictions` + version. */
export function predictionCall(model: string, input: Json): { path: string; body: Json } {
  const colon = model.indexOf(':');
  if (colon >= 0) return { path: '/v1/predictions', body: { version: model.slice(colon + 1), input } };
  const [owner, name, ...rest] = model.split('/');
  if (!owner || !name || rest.length > 0) {
    throw invalid('model', 'a Replicate model is owner/name or owner/name:version');
  }
  return { path: `/v1/models/${encodeURIComponent(owner)}/${encodeURIComponent(name)}/predictions`, body: { input } };
}

/** OpenAI `prompt`, `n`, `size` → an image model's `{prompt, num_outputs, aspect_ratio | width, height}`. */
export function imageInput(body: Json): Json {
  if (typeof body.prompt !== 'string' || body.prompt === '') throw invalid('prompt', 'prompt must be a string');
  if (body.response_format !== undefined && body.response_format !== 'url') {
    throw invalid('response_format', 'replicate answers image URLs only: response_format must be url');
  }
  const input: Json = { prompt: body.prompt };
  if (body.n !== undefined) input.num_outputs = body.n;
  Object.assign(input, sizeInput(body.size));
  return input;
}

function sizeInput(size: unknown): Json {
  if (size === undefined || size === 'auto') return {};
  const match = typeof size === 'string' ? /^(\d+)x(\d+)$/.exec(size) : null;
  if (!match) throw invalid('size', 'size must be WIDTHxHEIGHT or auto');
  const width = Number(match[1]);
  const height = Number(match[2]);
  const divisor = gcd(width, height);
  const ratio = NEAREST_RATIO[size as string] ?? `${width / divisor}:${height / divisor}`;
  return ASPECT_RATIOS.has(ratio) ? { aspect_ratio: ratio } : { width, height };
}

function gcd(a: number, b: number): number {
  return b === 0 ? Math.max(a, 1) : gcd(b, a % b);
}

/**
 * OpenAI chat → a language model's input: system messages joined as `system_prompt`; one user turn as `prompt`, a
 * longer conversation as `role: text` lines (Replicate's language models take one prompt, not a message list).
 */
export function chatInput(body: Json): Json {
  if (body.tools !== undefined) throw invalid('tools', 'replicate language models take no tools');
  if (!Array.isArray(body.messages)) throw invalid('messages', 'messages must be an array');
  const system: string[] = [];
  const turns: Array<{ role: string; text: string }> = [];
  (body.messages as unknown[]).forEach((message, i) => {
    if (!isJsonObject(message)) throw invalid(`messages[${i}]`, 'each message must be an object');
    const text = messageText(message.content, `messages[${i}].content`);
    if (message.role === 'system' || message.role === 'developer') system.push(text);
    else if (message.role === 'user' || message.role === 'assistant') turns.push({ role: message.role, text });
    else throw invalid(`messages[${i}].role`, 'role must be one of system, developer, user, assistant');
  });
  if (turns.length === 0) throw invalid('messages', 'messages must hold a user message');
  const prompt =
    turns.length === 1 ? turns[0]!.text : turns.map((t) => `${t.role}: ${t.text}`).join('\n\n') + '\n\nassistant:';
  const input: Json = { prompt };
  if (system.length > 0) input.system_prompt = system.join('\n\n');
  const maxTokens = body.max_completion_tokens ?? body.max_tokens;
  if (maxTokens !== undefined) input.max_tokens = maxTokens;
  if (body.temperature !== undefined) input.temperature = body.temperature;
  if (body.top_p !== undefined) input.top_p = body.top_p;
  if (typeof body.stop === 'string') input.stop_sequences = body.stop;
  else if (Array.isArray(body.stop)) input.stop_sequences = body.stop.join(',');
  return input;
}

/** A message's text: a string, or the text parts of a content array (any other part is a 400). */
function messageText(content: unknown, param: string): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) throw invalid(param, 'content must be a string or an array of text parts');
  return content
    .map((part: unknown, i) => {
      const piece = asObject(part);
      if (piece?.type !== 'text' || typeof piece.text !== 'string') {
        throw invalid(`${param}[${i}]`, 'replicate language models take text parts only');
      }
      return piece.text;
    })
    .join('');
}

/** A terminal prediction → the OpenAI answer of `kind`; a failed or canceled one throws the provider's message. */
export function fromPrediction(
  kind: 'chat' | 'image_generation',
  prediction: Json,
  target: ProviderTarget,
): ParsedResponse {
  if (prediction.status !== 'succeeded') {
    const message =
      asString(prediction.error) ?? (prediction.status === 'canceled' ? 'The prediction was canceled' : undefined);
    throw taskFailed('replicate', message);
  }
  const outputs = Array.isArray(prediction.output) ? (prediction.output as unknown[]) : [prediction.output];
  const strings = outputs.filter((o): o is string => typeof o === 'string');
  const created = createdSeconds(prediction.created_at);
  if (kind === 'image_generation') return { body: { created, data: strings.map((url) => ({ url })) } };
  const usage = predictionUsage(prediction.metrics);
  const answer: Json = {
    id: asString(prediction.id) ?? 'prediction',
    object: 'chat.completion',
    created,
    model: target.model,
    choices: [
      { index: 0, message: { role: 'assistant', content: strings.join('') }, finish_reason: 'stop', logprobs: null },
    ],
  };
  if (usage) answer.usage = usage;
  return usage ? { body: answer, usage } : { body: answer };
}

function createdSeconds(createdAt: unknown): number {
  const ms = typeof createdAt === 'string' ? Date.parse(createdAt) : NaN;
  return Number.isFinite(ms) ? Math.floor(ms / 1000) : nowSeconds();
}

/** `metrics.input_token_count` / `output_token_count` of a language model's prediction. */
function predictionUsage(metrics: unknown): Usage | undefined {
  const m = asObject(metrics);
  const input = m?.input_token_count;
  const output = m?.output_token_count;
  if (typeof input !== 'number' || typeof output !== 'number') return undefined;
  return { prompt_tokens: input, completion_tokens: output, total_tokens: input + output };
}

/** Replicate's errors are problem details: `{title, detail, status}` (422 adds `invalid_fields`). */
export function replicateErrorMessage(body: unknown): string | undefined {
  const o = asObject(body);
  return asString(o?.detail) ?? asString(o?.title);
}
