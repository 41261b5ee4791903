import type { Json, Usage } from '../../providers/provider-adapter.js';
import { asArray, asObject, asString } from '../../providers/wire-json.js';
import { reasoningTextOf } from '../../translation/chat-to-responses.js';
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
 * The canonical chat completion → the Converse answer: reasoning, text and tool uses as content blocks, the finish
 * reason as `stopReason`, the priced usage in Converse's counts, `latencyMs` the time the gateway took.
 */
export function chatToConverse(answer: Json, usage: Usage | undefined, latencyMs: number): Json {
  const choice = asObject(asArray(answer.choices)?.[0]) ?? {};
  const message = asObject(choice.message) ?? {};
  const content: Json[] = [];
  const reasoning = reasoningTextOf(message);
  if (reasoning) content.push({ reasoningContent: { reasoningText: { text: reasoning } } });
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
