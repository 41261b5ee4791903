import { GatewayException } from '../../../../core/errors/gateway.exception.js';
import {
  assistantTexts,
  imageUrlOf,
  parseBase64DataUrl,
  readFunctionTools,
  readToolCall,
  readToolChoice,
  walkChatMessages,
} from '../shared/chat-request-parts.js';
import type { Json } from '../shared/provider-adapter.js';
import { isJsonObject } from '../shared/wire-json.js';

/**
 * OpenAI chat body → Anthropic Messages body. Pure translation: a caller mistake the provider could not make sense of
 * (unparsable tool arguments, an unknown part type) is a 400 naming the field, never a provider round trip.
 */

/** `reasoning_effort` → `thinking.budget_tokens` (1024 is Anthropic's minimum budget). */
export const ANTHROPIC_THINKING_BUDGETS: Readonly<Record<string, number>> = {
  low: 1024,
  medium: 4096,
  high: 16384,
  xhigh: 32768,
};

/** `max_tokens` is required by Anthropic; used when the caller sets neither max_completion_tokens nor max_tokens. */
export const ANTHROPIC_DEFAULT_MAX_TOKENS = 4096;

/** The fields `/v1/messages/count_tokens` accepts (no max_tokens, stream or sampling settings). */
const COUNT_TOKENS_FIELDS = ['model', 'messages', 'system', 'tools', 'tool_choice', 'thinking'] as const;

const invalid = (param: string, message: string) => GatewayException.validation(param, message);

export function toAnthropicMessagesBody(body: Json, stream: boolean): Json {
  const { system, messages } = translateMessages(body.messages);
  if (typeof body.n === 'number' && body.n > 1) throw invalid('n', 'anthropic returns one choice; n must be 1');
  const out: Json = { model: body.model };
  if (system !== undefined) out.system = system;
  out.messages = messages;

  let thinking = thinkingOf(body);
  // Claude refuses thinking when the turn it continues used tools without its signed thinking (a conversation begun
  // through a format that has no place for signatures): without thinking the request is still served.
  if (thinking && thinking.type !== 'disabled' && toolTurnLacksThinking(messages)) thinking = undefined;
  const callerMax = firstNumber(body.max_completion_tokens, body.max_tokens);
  if (thinking) {
    // OpenAI's max_completion_tokens includes reasoning; Anthropic wants max_tokens > budget_tokens.
    const budget = thinking.budget_tokens;
    if (typeof budget === 'number' && callerMax !== undefined && callerMax <= budget && body.thinking === undefined)
      thinking.budget_tokens = Math.max(1024, callerMax - 1);
    out.max_tokens =
      callerMax ?? (typeof budget === 'number' ? budget + ANTHROPIC_DEFAULT_MAX_TOKENS : ANTHROPIC_DEFAULT_MAX_TOKENS);
    out.thinking = thinking;
  } else {
    out.max_tokens = callerMax ?? ANTHROPIC_DEFAULT_MAX_TOKENS;
  }

  if (body.stop !== undefined && body.stop !== null)
    out.stop_sequences = typeof body.stop === 'string' ? [body.stop] : body.stop;
  for (const field of ['temperature', 'top_p', 'top_k'] as const)
    if (typeof body[field] === 'number') out[field] = body[field];

  if (body.tools !== undefined && body.tools !== null) out.tools = translateTools(body.tools);
  const toolChoice = translateToolChoice(body.tool_choice, body.parallel_tool_calls, out.tools !== undefined);
  if (toolChoice) out.tool_choice = toolChoice;

  if (typeof body.user === 'string' && body.user) out.metadata = { user_id: body.user };
  if (stream) out.stream = true;
  return out;
}

/** The count_tokens body: the Messages translation of a chat-shaped `{ model, messages, tools? }`, trimmed. */
export function toAnthropicCountTokensBody(body: Json): Json {
  const full = toAnthropicMessagesBody(body, false);
  const out: Json = {};
  for (const field of COUNT_TOKENS_FIELDS) if (full[field] !== undefined) out[field] = full[field];
  return out;
}

/** The last assistant turn called tools but does not begin with a thinking block (Claude then refuses thinking). */
export function toolTurnLacksThinking(messages: readonly Json[]): boolean {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.role !== 'assistant') continue;
    const blocks = Array.isArray(message.content) ? (message.content as Json[]) : [];
    if (!blocks.some((b) => b.type === 'tool_use')) return false;
    const first = blocks[0]?.type;
    return first !== 'thinking' && first !== 'redacted_thinking';
  }
  return false;
}

function firstNumber(...values: unknown[]): number | undefined {
  for (const v of values) if (typeof v === 'number') return v;
  return undefined;
}

/** An explicit `thinking` object passes through; else `reasoning_effort` picks a budget ('none'/'minimal': off). */
function thinkingOf(body: Json): Json | undefined {
  if (isJsonObject(body.thinking)) return { ...body.thinking };
  const effort = body.reasoning_effort;
  if (effort === undefined || effort === null || effort === 'none' || effort === 'minimal') return undefined;
  const budget = typeof effort === 'string' ? ANTHROPIC_THINKING_BUDGETS[effort] : undefined;
  if (budget === undefined)
    throw invalid('reasoning_effort', 'reasoning_effort must be one of none, minimal, low, medium, high, xhigh');
  return { type: 'enabled', budget_tokens: budget };
}

function translateMessages(raw: unknown): { system?: string | Json[]; messages: Json[] } {
  const system: Json[] = [];
  const messages: Json[] = [];
  walkChatMessages(raw, {
    system: (message, param) => system.push(...systemBlocks(message.content, `${param}.content`)),
    user: (message, param) =>
      messages.push({ role: 'user', content: userContent(message.content, `${param}.content`) }),
    assistant: (message, param) => messages.push({ role: 'assistant', content: assistantContent(message, param) }),
    toolResult,
    openToolTurn: (results) => messages.push({ role: 'user', content: results }),
  });
  if (system.length === 0) return { messages };
  const only = system.length === 1 ? system[0]! : undefined;
  return { system: only && only.cache_control === undefined ? (only.text as string) : system, messages };
}

/** System text as text blocks; empty strings are dropped (Anthropic refuses empty text blocks). */
function systemBlocks(content: unknown, param: string): Json[] {
  if (typeof content === 'string') return content ? [{ type: 'text', text: content }] : [];
  if (!Array.isArray(content)) throw invalid(param, 'content must be a string or an array of text parts');
  return content.flatMap((part: unknown, j) => {
    if (!isJsonObject(part) || part.type !== 'text' || typeof part.text !== 'string')
      throw invalid(`${param}[${j}]`, 'system content parts must be text parts');
    return part.text ? [textBlock(part)] : [];
  });
}

function textBlock(part: Json): Json {
  const block: Json = { type: 'text', text: part.text };
  if (part.cache_control !== undefined) block.cache_control = part.cache_control;
  return block;
}

function userContent(content: unknown, param: string): string | Json[] {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) throw invalid(param, 'content must be a string or an array of parts');
  return content.map((part: unknown, j) => contentPart(part, `${param}[${j}]`));
}

/** One OpenAI content part (text, image_url, file) → one Anthropic block. */
function contentPart(part: unknown, param: string): Json {
  if (!isJsonObject(part)) throw invalid(param, 'each content part must be an object');
  switch (part.type) {
    case 'text':
      if (typeof part.text !== 'string') throw invalid(`${param}.text`, 'text must be a string');
      return textBlock(part);
    case 'image_url': {
      const url = imageUrlOf(part, param);
      const block: Json = { type: 'image', source: mediaSource(url, `${param}.image_url.url`) };
      if (part.cache_control !== undefined) block.cache_control = part.cache_control;
      return block;
    }
    case 'file': {
      const data = isJsonObject(part.file) ? part.file.file_data : undefined;
      const parsed = typeof data === 'string' ? parseBase64DataUrl(data) : undefined;
      if (!parsed) throw invalid(`${param}.file.file_data`, 'file parts need file_data as a base64 data: URL');
      const block: Json = {
        type: 'document',
        source: { type: 'base64', media_type: parsed.mediaType, data: parsed.data },
      };
      if (part.cache_control !== undefined) block.cache_control = part.cache_control;
      return block;
    }
    default:
      throw invalid(`${param}.type`, 'content part type must be text, image_url or file for anthropic');
  }
}

function mediaSource(url: string, param: string): Json {
  const parsed = parseBase64DataUrl(url);
  if (parsed) return { type: 'base64', media_type: parsed.mediaType, data: parsed.data };
  if (/^https?:\/\//i.test(url)) return { type: 'url', url };
  throw invalid(param, 'an image URL must be an http(s) URL or a base64 data: URL');
}

/**
 * An assistant turn. `thinking_blocks` (thinking with its `signature`, redacted_thinking with its `data`, as the
 * `/anthropic` format and Anthropic answers carry them) go first and verbatim: Anthropic checks the signatures of the
 * thinking that preceded tool use. Text parts and tool calls keep their `cache_control`.
 */
function assistantContent(message: Json, param: string): string | Json[] {
  const toolCalls = message.tool_calls;
  const content = message.content;
  const hasToolCalls = Array.isArray(toolCalls) && toolCalls.length > 0;
  const thinking = thinkingBlocks(message.thinking_blocks, `${param}.thinking_blocks`);
  const cached = Array.isArray(content) && content.some((p) => isJsonObject(p) && p.cache_control !== undefined);
  if (
    !hasToolCalls &&
    !thinking &&
    !cached &&
    (typeof content === 'string' || content === null || content === undefined)
  )
    return content ?? '';
  const blocks: Json[] = thinking ?? [];
  if (cached) (content as unknown[]).forEach((part, j) => blocks.push(contentPart(part, `${param}.content[${j}]`)));
  else blocks.push(...assistantTexts(content, param).map((text) => ({ type: 'text', text })));
  if (hasToolCalls)
    (toolCalls as unknown[]).forEach((call, k) => blocks.push(toolUse(call, `${param}.tool_calls[${k}]`)));
  return blocks;
}

function thinkingBlocks(raw: unknown, param: string): Json[] | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (!Array.isArray(raw)) throw invalid(param, 'thinking_blocks must be an array');
  if (raw.length === 0) return undefined;
  return raw.map((block: unknown, k) => {
    if (!isJsonObject(block) || (block.type !== 'thinking' && block.type !== 'redacted_thinking'))
      throw invalid(`${param}[${k}].type`, 'a thinking block is thinking or redacted_thinking');
    return block;
  });
}

function toolUse(call: unknown, param: string): Json {
  const read = readToolCall(call, param, true);
  const block: Json = { type: 'tool_use', id: read.id, name: read.name, input: read.arguments };
  if (isJsonObject(call) && call.cache_control !== undefined) block.cache_control = call.cache_control;
  return block;
}

function toolResult(message: Json, param: string): Json {
  if (typeof message.tool_call_id !== 'string' || !message.tool_call_id)
    throw invalid(`${param}.tool_call_id`, 'a tool message needs tool_call_id');
  const block: Json = { type: 'tool_result', tool_use_id: message.tool_call_id };
  const content = message.content;
  if (typeof content === 'string') block.content = content;
  else if (Array.isArray(content))
    block.content = content.map((p: unknown, j) => contentPart(p, `${param}.content[${j}]`));
  else if (content !== null && content !== undefined)
    throw invalid(`${param}.content`, 'content must be a string or an array of parts');
  // The /anthropic format's members of a tool message: a failed tool's result, and its cache breakpoint.
  if (message.is_error === true) block.is_error = true;
  if (message.cache_control !== undefined) block.cache_control = message.cache_control;
  return block;
}

function translateTools(tools: unknown): Json[] {
  return readFunctionTools(tools, 'anthropic').map(({ tool, fn }) => {
    const out: Json = { name: fn.name };
    if (typeof fn.description === 'string') out.description = fn.description;
    out.input_schema = isJsonObject(fn.parameters) ? fn.parameters : { type: 'object', properties: {} };
    if (tool.cache_control !== undefined) out.cache_control = tool.cache_control;
    return out;
  });
}

const TOOL_CHOICE_MODES: Readonly<Record<'auto' | 'none' | 'required', Json>> = {
  auto: { type: 'auto' },
  none: { type: 'none' },
  required: { type: 'any' },
};

function translateToolChoice(choice: unknown, parallel: unknown, hasTools: boolean): Json | undefined {
  const read = readToolChoice(choice);
  let out: Json | undefined =
    read === undefined
      ? undefined
      : typeof read === 'string'
        ? { ...TOOL_CHOICE_MODES[read] }
        : { type: 'tool', ...read };
  // Anthropic refuses a tool_choice without tools, so parallel_tool_calls alone only applies alongside tools.
  if (parallel === false && hasTools && out?.type !== 'none')
    out = { ...(out ?? { type: 'auto' }), disable_parallel_tool_use: true };
  return out;
}
