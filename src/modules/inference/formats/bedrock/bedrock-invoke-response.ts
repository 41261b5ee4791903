import type { Json, Usage } from '../../providers/provider-adapter.js';
import { asArray, asObject, asString } from '../../providers/wire-json.js';
import { reasoningTextOf } from '../../translation/chat-to-responses.js';
import { toolInputOf } from './bedrock-converse-response.js';
import { uncachedInput, usageOf } from './bedrock-usage.js';

/** A chat finish reason as Anthropic's `stop_reason`. */
export function claudeStopReason(finish: unknown): string {
  switch (finish) {
    case 'length':
      return 'max_tokens';
    case 'tool_calls':
    case 'function_call':
      return 'tool_use';
    case 'content_filter':
      return 'refusal';
    default:
      return 'end_turn';
  }
}

/** Anthropic's usage counts (input without the cached tokens, which have their own fields). */
export function claudeUsage(usage: Usage | undefined): Json {
  if (!usage) return { input_tokens: 0, output_tokens: 0 };
  const { input, cacheRead, cacheWrite } = uncachedInput(usage);
  return {
    input_tokens: input,
    cache_creation_input_tokens: cacheWrite,
    cache_read_input_tokens: cacheRead,
    output_tokens: usage.completion_tokens,
  };
}

/** The id of the Anthropic message an answer becomes (`msg_` + the canonical id). */
export function claudeMessageId(chatId: unknown): string {
  const id = asString(chatId) ?? '';
  return id.startsWith('msg_') ? id : `msg_bdrk_${id.replace(/^chatcmpl-/, '')}`;
}

/** The canonical chat completion → the Anthropic Messages answer InvokeModel returns for a Claude body. */
export function chatToClaude(answer: Json, usage: Usage | undefined, model: string): Json {
  const choice = asObject(asArray(answer.choices)?.[0]) ?? {};
  const message = asObject(choice.message) ?? {};
  const content: Json[] = [];
  const reasoning = reasoningTextOf(message);
  if (reasoning) content.push({ type: 'thinking', thinking: reasoning, signature: '' });
  const text = asString(message.content);
  if (text) content.push({ type: 'text', text });
  for (const raw of asArray(message.tool_calls) ?? []) {
    const call = asObject(raw) ?? {};
    const fn = asObject(call.function) ?? {};
    content.push({
      type: 'tool_use',
      id: asString(call.id) ?? '',
      name: asString(fn.name) ?? '',
      input: toolInputOf(fn.arguments),
    });
  }
  return {
    id: claudeMessageId(answer.id),
    type: 'message',
    role: 'assistant',
    model,
    content,
    stop_reason: claudeStopReason(choice.finish_reason),
    stop_sequence: null,
    usage: claudeUsage(usageOf(answer, usage)),
  };
}
