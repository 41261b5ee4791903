import { randomUUID } from 'node:crypto';
import type { Json, Usage } from '../../shared/provider-adapter.js';
import { isJsonObject, jsonObjects } from '../../shared/wire-json.js';
import { parseModelRef } from '../../shared/model-ref.js';

/** The canonical chat answer → an Anthropic `message`, and the pieces the stream encoder shares with it. */

/** OpenAI finish_reason → Anthropic stop_reason; a known stop sequence makes `stop` a `stop_sequence`. */
export function stopReasonOf(finish: unknown, stopSequence: string | null): string | null {
  switch (finish) {
    case 'stop':
      return stopSequence === null ? 'end_turn' : 'stop_sequence';
    case 'length':
      return 'max_tokens';
    case 'tool_calls':
    case 'function_call':
      return 'tool_use';
    case 'content_filter':
      return 'refusal';
    case null:
    case undefined:
      return null;
    default:
      return 'end_turn';
  }
}

/** Anthropic usage from the contract's: input excludes cache reads and writes, which have their own counters. */
export function anthropicUsageOf(usage: Usage | undefined): Json {
  const read = usage?.prompt_tokens_details?.cached_read_tokens ?? 0;
  const write = usage?.prompt_tokens_details?.cached_write_tokens ?? 0;
  return {
    input_tokens: Math.max(0, (usage?.prompt_tokens ?? 0) - read - write),
    output_tokens: usage?.completion_tokens ?? 0,
    cache_creation_input_tokens: write,
    cache_read_input_tokens: read,
  };
}

/**
 * The model as the caller named it, from the canonical request's: Anthropic's own without the `anthropic/` the route
 * added (`claude-sonnet-4`), another provider's with its prefix (`openai/gpt-4o`), as sent.
 */
export function requestedModel(canonical: unknown): string {
  if (typeof canonical !== 'string') return '';
  const ref = parseModelRef(canonical);
  return ref.provider === 'anthropic' ? ref.model : canonical;
}

/** An Anthropic message id: the upstream's when it is one (an Anthropic target), else a new one. */
export function messageIdOf(id: unknown): string {
  return typeof id === 'string' && id.startsWith('msg_') ? id : `msg_${randomUUID().replace(/-/g, '')}`;
}

/** Tool-call arguments as the `input` object (text that is not a JSON object is kept under `_raw`, never lost). */
export function toolInputOf(args: unknown): Json {
  if (isJsonObject(args)) return args;
  if (typeof args !== 'string' || args.trim() === '') return {};
  try {
    const parsed = JSON.parse(args) as unknown;
    return isJsonObject(parsed) ? parsed : { _raw: args };
  } catch {
    return { _raw: args };
  }
}

/** `stop_sequence` of a choice: the Anthropic adapter keeps the one that stopped the answer. */
export function stopSequenceOf(choice: Json): string | null {
  return typeof choice.stop_sequence === 'string' ? choice.stop_sequence : null;
}

/**
 * Thinking blocks first (the adapter's `thinking_blocks`, signatures included, else `reasoning_content`), then text,
 * then tool_use blocks.
 */
function contentOf(message: Json): Json[] {
  const content: Json[] = [];
  const blocks = jsonObjects(message.thinking_blocks);
  if (blocks.length > 0) content.push(...blocks.map((b) => ({ ...b })));
  else if (typeof message.reasoning_content === 'string' && message.reasoning_content)
    content.push({ type: 'thinking', thinking: message.reasoning_content, signature: '' });
  const text = typeof message.content === 'string' ? message.content : textOfParts(message.content);
  if (text) content.push({ type: 'text', text });
  for (const call of jsonObjects(message.tool_calls)) {
    const fn = isJsonObject(call.function) ? call.function : {};
    content.push({ type: 'tool_use', id: call.id, name: fn.name, input: toolInputOf(fn.arguments) });
  }
  if (content.length === 0) content.push({ type: 'text', text: '' });
  return content;
}

function textOfParts(parts: unknown): string {
  return jsonObjects(parts)
    .map((p) => (typeof p.text === 'string' ? p.text : typeof p.refusal === 'string' ? p.refusal : ''))
    .join('');
}

export function messageFromCanonical(answer: Json, usage: Usage | undefined, canonicalModel: unknown): Json {
  const choice = jsonObjects(answer.choices)[0] ?? {};
  const message = isJsonObject(choice.message) ? choice.message : {};
  const stopSequence = stopSequenceOf(choice);
  return {
    id: messageIdOf(answer.id),
    type: 'message',
    role: 'assistant',
    model: requestedModel(canonicalModel),
    content: contentOf(message),
    stop_reason: stopReasonOf(choice.finish_reason ?? 'stop', stopSequence),
    stop_sequence: stopSequence,
    usage: anthropicUsageOf(usage),
  };
}

/** The count_tokens answer (`{ input_tokens }`) from the canonical `{ object: "response.input_tokens", input_tokens }`. */
export function countFromCanonical(answer: Json): Json {
  return { input_tokens: typeof answer.input_tokens === 'number' ? answer.input_tokens : 0 };
}
