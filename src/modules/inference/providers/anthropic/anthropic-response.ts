import { nowSeconds } from '../shared/native-adapter-parts.js';
import type { Json, ParsedResponse, ProviderTarget, Usage } from '../shared/provider-adapter.js';
import { isJsonObject, jsonObjects } from '../shared/wire-json.js';

/** Anthropic's usage counters, as numbers (0 when absent). */
export interface AnthropicUsageCounts {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  webSearch: number;
}

const count = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

export function readAnthropicUsage(usage: unknown): AnthropicUsageCounts {
  const u = isJsonObject(usage) ? usage : {};
  const server = isJsonObject(u.server_tool_use) ? u.server_tool_use : {};
  return {
    input: count(u.input_tokens),
    output: count(u.output_tokens),
    cacheRead: count(u.cache_read_input_tokens),
    cacheWrite: count(u.cache_creation_input_tokens),
    webSearch: count(server.web_search_requests),
  };
}

/**
 * A stream reports usage twice (message_start, message_delta), each possibly partial: the per-field max is the
 * cumulative figure (reference §2.7), so a message_delta without cache fields does not lose them.
 */
export function maxAnthropicUsage(a: AnthropicUsageCounts, b: AnthropicUsageCounts): AnthropicUsageCounts {
  return {
    input: Math.max(a.input, b.input),
    output: Math.max(a.output, b.output),
    cacheRead: Math.max(a.cacheRead, b.cacheRead),
    cacheWrite: Math.max(a.cacheWrite, b.cacheWrite),
    webSearch: Math.max(a.webSearch, b.webSearch),
  };
}

/** Contract usage: Anthropic's input_tokens excludes cache reads and writes, the contract's prompt_tokens includes them. */
export function anthropicUsage(c: AnthropicUsageCounts): Usage {
  const prompt = c.input + c.cacheRead + c.cacheWrite;
  const usage: Usage = { prompt_tokens: prompt, completion_tokens: c.output, total_tokens: prompt + c.output };
  if (c.cacheRead || c.cacheWrite) {
    usage.prompt_tokens_details = {};
    if (c.cacheRead) usage.prompt_tokens_details.cached_read_tokens = c.cacheRead;
    if (c.cacheWrite) usage.prompt_tokens_details.cached_write_tokens = c.cacheWrite;
  }
  if (c.webSearch) {
    usage.tool_usage = { web_search: { num_requests: c.webSearch } };
    usage.completion_tokens_details = { num_search_queries: c.webSearch };
  }
  return usage;
}

/** stop_reason → OpenAI finish_reason (pause_turn: a server-tool loop paused, the turn itself ended). */
export function anthropicFinishReason(stopReason: unknown): string | null {
  switch (stopReason) {
    case 'end_turn':
    case 'stop_sequence':
    case 'pause_turn':
      return 'stop';
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'tool_use':
      return 'tool_calls';
    case 'refusal':
      return 'content_filter';
    case null:
    case undefined:
      return null;
    default:
      return 'stop';
  }
}

/**
 * An Anthropic `message` → `chat.completion`. Text blocks are joined, client tool_use blocks become tool_calls,
 * thinking text becomes `reasoning_content`, and the thinking blocks themselves (signatures, redacted thinking) go in
 * `thinking_blocks`, which the `/anthropic` format answers with and `anthropic-messages.ts` sends back on the next
 * turn. A stop sequence that ended the answer is the choice's `stop_sequence`. Server tool blocks stay upstream.
 */
export function fromAnthropicMessage(body: Json, target: ProviderTarget): ParsedResponse {
  const blocks = jsonObjects(body.content);
  const texts: string[] = [];
  const thinking: string[] = [];
  const toolCalls: Json[] = [];
  const thinkingBlocks: Json[] = [];
  for (const block of blocks) {
    if (block.type === 'text' && typeof block.text === 'string') texts.push(block.text);
    else if (block.type === 'thinking' && typeof block.thinking === 'string') {
      thinking.push(block.thinking);
      thinkingBlocks.push({ type: 'thinking', thinking: block.thinking, signature: block.signature });
    } else if (block.type === 'redacted_thinking') thinkingBlocks.push({ type: 'redacted_thinking', data: block.data });
    else if (block.type === 'tool_use')
      toolCalls.push({
        id: block.id,
        type: 'function',
        function: { name: block.name, arguments: JSON.stringify(block.input ?? {}) },
      });
  }
  const message: Json = { role: 'assistant', content: texts.length > 0 ? texts.join('') : null };
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  if (thinking.length > 0) message.reasoning_content = thinking.join('');
  if (thinkingBlocks.length > 0) message.thinking_blocks = thinkingBlocks;
  if (message.content === null && toolCalls.length === 0) message.content = '';

  const usage = anthropicUsage(readAnthropicUsage(body.usage));
  const model = typeof body.model === 'string' ? body.model : target.model;
  const choice: Json = {
    index: 0,
    message,
    finish_reason: anthropicFinishReason(body.stop_reason) ?? 'stop',
    logprobs: null,
  };
  if (body.stop_reason === 'stop_sequence' && typeof body.stop_sequence === 'string')
    choice.stop_sequence = body.stop_sequence;
  const parsed: ParsedResponse = {
    body: {
      id: body.id,
      object: 'chat.completion',
      created: nowSeconds(),
      model,
      choices: [choice],
      usage,
    },
    usage,
  };
  if (model !== target.model) parsed.answeredModel = model;
  return parsed;
}
