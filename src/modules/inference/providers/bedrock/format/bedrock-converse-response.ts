import type { Json, Usage } from '../../shared/provider-adapter.js';
import { asArray, asObject, asString } from '../../shared/wire-json.js';
import { reasoningTextOf } from '../../../translation/chat-to-responses.js';
import { converseStopReason, converseUsage, usageOf } from './bedrock-usage.js';

/** Tool arguments as the object Converse's `toolUse.input` holds (arguments that are not an object are kept as text). */
export function toolInputOf(args: unknown): unknown {
  if (typeof args !== 'string' || args.trim() === '') return {};
  try {
    return JSON.parse(args) as unknown;
  } catch {
    return args;
  }
}

/**
 * Claude's `thinking_blocks` as reasoning blocks, signatures and redactions kept (the next turn must send them back);
 * else the reasoning text of any provider as one unsigned block.
 */
function reasoningBlocks(message: Json): Json[] {
  const signed = (asArray(message.thinking_blocks) ?? []).flatMap((raw): Json[] => {
    const block = asObject(raw) ?? {};
    if (block.type === 'redacted_thinking' && typeof block.data === 'string')
      return [{ reasoningContent: { redactedContent: block.data } }];
    if (block.type !== 'thinking') return [];
    const text: Json = { text: asString(block.thinking) ?? '' };
    if (typeof block.signature === 'string' && block.signature) text.signature = block.signature;
    return [{ reasoningContent: { reasoningText: text } }];
  });
  if (signed.length > 0) return signed;
  const reasoning = reasoningTextOf(message);
  return reasoning ? [{ reasoningContent: { reasoningText: { text: reasoning } } }] : [];
}

/**
 * The canonical chat completion → the Converse answer: reasoning, text and tool uses as content blocks, the finish
 * reason as `stopReason`, the priced usage in Converse's counts, `latencyMs` the time the gateway took.
 */
export function chatToConverse(answer: Json, usage: Usage | undefined, latencyMs: number): Json {
  const choice = asObject(asArray(answer.choices)?.[0]) ?? {};
  const message = asObject(choice.message) ?? {};
  const content: Json[] = [];
  content.push(...reasoningBlocks(message));
  const text = asString(message.content);
  if (text) content.push({ text });
  for (const raw of asArray(message.tool_calls) ?? []) {
    const call = asObject(raw) ?? {};
    const fn = asObject(call.function) ?? {};
    content.push({
      toolUse: { toolUseId: asString(call.id) ?? '', name: asString(fn.name) ?? '', input: toolInputOf(fn.arguments) },
    });
  }
  return {
    output: { message: { role: 'assistant', content } },
    stopReason: converseStopReason(choice.finish_reason),
    usage: converseUsage(usageOf(answer, usage)),
    metrics: { latencyMs: Math.round(latencyMs) },
  };
}
