import { randomUUID } from 'node:crypto';
import { nowSeconds } from '../shared/native-adapter-parts.js';
import type { Json, ParsedResponse, ProviderTarget, Usage } from '../shared/provider-adapter.js';
import { isJsonObject, jsonObjects } from '../shared/wire-json.js';

/** Converse answers (unary) → `chat.completion`, and the usage and stop-reason mapping the stream shares. */

const count = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

/**
 * Converse `usage` → contract usage (reference §2.7): `inputTokens` excludes cache reads and writes, the contract's
 * prompt_tokens includes them.
 */
export function converseUsage(raw: unknown): Usage {
  const u = isJsonObject(raw) ? raw : {};
  const cacheRead = count(u.cacheReadInputTokens);
  const cacheWrite = count(u.cacheWriteInputTokens);
  const prompt = count(u.inputTokens) + cacheRead + cacheWrite;
  const completion = count(u.outputTokens);
  const usage: Usage = { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
  if (cacheRead || cacheWrite) {
    usage.prompt_tokens_details = {};
    if (cacheRead) usage.prompt_tokens_details.cached_read_tokens = cacheRead;
    if (cacheWrite) usage.prompt_tokens_details.cached_write_tokens = cacheWrite;
  }
  return usage;
}

/** Converse `stopReason` → OpenAI finish_reason. */
export function converseFinishReason(stopReason: unknown): string {
  switch (stopReason) {
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'tool_use':
      return 'tool_calls';
    case 'guardrail_intervened':
    case 'content_filtered':
      return 'content_filter';
    default:
      // end_turn, stop_sequence and reasons added after this adapter was written.
      return 'stop';
  }
}

/** Converse answers carry no id; the chunks and the completion get one of OpenAI's shape. */
export const completionId = (): string => `chatcmpl-${randomUUID().replace(/-/g, '')}`;

/** The text of a `reasoningContent` block (`{ reasoningText: { text, signature } }`), or '' (redacted content). */
export function reasoningTextOf(block: unknown): string {
  const b = isJsonObject(block) ? block : {};
  const text = isJsonObject(b.reasoningText) ? b.reasoningText.text : b.text;
  return typeof text === 'string' ? text : '';
}

/**
 * Claude's signed or redacted reasoning as the `thinking_blocks` Anthropic answers carry: the next turn must send it
 * back verbatim (signature included) when it calls tools with thinking on.
 */
function signedThinkingOf(block: unknown): Json | undefined {
  if (!isJsonObject(block)) return undefined;
  if (typeof block.redactedContent === 'string') return { type: 'redacted_thinking', data: block.redactedContent };
  const text = isJsonObject(block.reasoningText) ? block.reasoningText : undefined;
  if (typeof text?.signature !== 'string' || !text.signature) return undefined;
  return { type: 'thinking', thinking: typeof text.text === 'string' ? text.text : '', signature: text.signature };
}

export function fromConverseResponse(body: Json, target: ProviderTarget): ParsedResponse {
  const output = isJsonObject(body.output) ? body.output : {};
  const blocks = jsonObjects(isJsonObject(output.message) ? output.message.content : undefined);
  const texts: string[] = [];
  const reasoning: string[] = [];
  const toolCalls: Json[] = [];
  const thinkingBlocks: Json[] = [];
  for (const block of blocks) {
    if (typeof block.text === 'string') texts.push(block.text);
    else if (block.reasoningContent !== undefined) {
      reasoning.push(reasoningTextOf(block.reasoningContent));
      const signed = signedThinkingOf(block.reasoningContent);
      if (signed) thinkingBlocks.push(signed);
    } else if (isJsonObject(block.toolUse))
      toolCalls.push({
        id: block.toolUse.toolUseId,
        type: 'function',
        function: { name: block.toolUse.name, arguments: JSON.stringify(block.toolUse.input ?? {}) },
      });
  }
  const message: Json = {
    role: 'assistant',
    content: texts.length > 0 || toolCalls.length === 0 ? texts.join('') : null,
  };
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  const thought = reasoning.join('');
  if (thought) message.reasoning_content = thought;
  if (thinkingBlocks.length > 0) message.thinking_blocks = thinkingBlocks;
  const usage = converseUsage(body.usage);
  return {
    body: {
      id: completionId(),
      object: 'chat.completion',
      created: nowSeconds(),
      model: target.model,
      choices: [{ index: 0, message, finish_reason: converseFinishReason(body.stopReason), logprobs: null }],
      usage,
    },
    usage,
  };
}
