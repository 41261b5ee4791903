import { GatewayException } from '../../../../core/errors/gateway.exception.js';
import { ANTHROPIC_THINKING_BUDGETS } from '../anthropic/anthropic-messages.js';
import { isClaude } from './bedrock-invoke.js';
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
 * OpenAI chat body → Bedrock Converse body (`/model/{id}/converse` and `/converse-stream` take the same body; the
 * model is in the path). A caller mistake Converse could not express (an image by URL, unparsable tool arguments)
 * is a 400 naming the field, never a provider round trip.
 */

const invalid = (param: string, message: string) => GatewayException.validation(param, message);

/** Caller field: an object passed as Converse's `additionalModelRequestFields` (model-specific settings). */
export const BEDROCK_ADDITIONAL_FIELDS = 'additional_model_request_fields';

/** Media types Converse accepts as image bytes, by their `format` name. */
const IMAGE_FORMATS: Readonly<Record<string, string>> = {
  'image/png': 'png',
  'image/jpeg': 'jpeg',
  'image/jpg': 'jpeg',
  'image/gif': 'gif',
  'image/webp': 'webp',
};

const DOCUMENT_FORMATS: Readonly<Record<string, string>> = {
  'application/pdf': 'pdf',
  'text/csv': 'csv',
  'text/html': 'html',
  'text/plain': 'txt',
  'text/markdown': 'md',
  'application/msword': 'doc',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/vnd.ms-excel': 'xls',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
};

/**
 * Blocks converted from a canonical part, tool call, tool message or tool that carried `cache_control` (Anthropic's
 * cache breakpoint, as the `/anthropic` format and `/v1` callers send it): a Converse `cachePoint` follows each.
 */
const cacheMarked = new WeakSet<Json>();

function marked(block: Json, source: unknown): Json {
  if (isJsonObject(source) && source.cache_control !== undefined && source.cache_control !== null)
    cacheMarked.add(block);
  return block;
}

/** Bedrock caches prompts of Claude and Nova models; other models refuse a cachePoint, so theirs are dropped. */
const cachesPrompts = (model: string): boolean => isClaude(model) || /(^|[./])amazon\.nova/.test(model);

/** `blocks` with a `cachePoint` after each marked one. */
function withCachePoints(blocks: Json[]): Json[] {
  return blocks.flatMap((block) => (cacheMarked.has(block) ? [block, { cachePoint: { type: 'default' } }] : [block]));
}

export function toConverseBody(body: Json, model: string): Json {
  if (typeof body.n === 'number' && body.n > 1) throw invalid('n', 'bedrock returns one choice; n must be 1');
  const { system, messages } = translateMessages(body.messages);
  if (cachesPrompts(model)) {
    system.splice(0, system.length, ...withCachePoints(system));
    for (const message of messages) message.content = withCachePoints(message.content as Json[]);
  }
  const out: Json = { messages };
  if (system.length > 0) out.system = system;

  const inference: Json = {};
  const max = typeof body.max_completion_tokens === 'number' ? body.max_completion_tokens : body.max_tokens;
  if (typeof max === 'number') inference.maxTokens = max;
  if (typeof body.temperature === 'number') inference.temperature = body.temperature;
  if (typeof body.top_p === 'number') inference.topP = body.top_p;
  if (typeof body.stop === 'string') inference.stopSequences = [body.stop];
  else if (Array.isArray(body.stop)) inference.stopSequences = body.stop;
  if (Object.keys(inference).length > 0) out.inferenceConfig = inference;

  if (body.tools !== undefined && body.tools !== null) {
    const tools = translateTools(body.tools);
    const toolConfig: Json = { tools: cachesPrompts(model) ? withCachePoints(tools) : tools };
    const choice = translateToolChoice(body.tool_choice);
    if (choice) toolConfig.toolChoice = choice;
    out.toolConfig = toolConfig;
  }

  const additional = additionalFields(body, model);
  // As on Anthropic's API: Claude refuses thinking when the turn it continues used tools without its signed thinking.
  if (additional?.thinking !== undefined && toolTurnLacksReasoning(messages)) delete additional.thinking;
  if (additional && Object.keys(additional).length > 0) out.additionalModelRequestFields = additional;
  return out;
}

/** The last assistant turn called tools but does not begin with its reasoning. */
function toolTurnLacksReasoning(messages: readonly Json[]): boolean {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.role !== 'assistant') continue;
    const blocks = Array.isArray(message.content) ? (message.content as Json[]) : [];
    if (!blocks.some((b) => b.toolUse !== undefined)) return false;
    return blocks[0]?.reasoningContent === undefined;
  }
  return false;
}

/**
 * `additional_model_request_fields` as given, plus Claude's `thinking` from `reasoning_effort` (the only Bedrock
 * family whose reasoning switch is known; other models take theirs through the additional fields).
 */
function additionalFields(body: Json, model: string): Json | undefined {
  const given = body[BEDROCK_ADDITIONAL_FIELDS];
  if (given !== undefined && !isJsonObject(given))
    throw invalid(BEDROCK_ADDITIONAL_FIELDS, `${BEDROCK_ADDITIONAL_FIELDS} must be an object`);
  const out: Json = { ...given };
  // Claude's own `thinking` object (the `/anthropic` and `/bedrock` formats keep it for Claude) goes as it is.
  if (model.includes('anthropic.') && isJsonObject(body.thinking)) out.thinking ??= body.thinking;
  const effort = body.reasoning_effort;
  if (model.includes('anthropic.') && typeof effort === 'string' && effort !== 'none' && effort !== 'minimal') {
    const budget = ANTHROPIC_THINKING_BUDGETS[effort];
    if (budget === undefined)
      throw invalid('reasoning_effort', 'reasoning_effort must be one of none, minimal, low, medium, high, xhigh');
    out.thinking ??= { type: 'enabled', budget_tokens: budget };
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** Consecutive turns of one role are merged: Converse wants user and assistant turns to alternate. */
function translateMessages(raw: unknown): { system: Json[]; messages: Json[] } {
  const system: Json[] = [];
  const messages: Json[] = [];
  const push = (role: 'user' | 'assistant', content: Json[]) => {
    const last = messages[messages.length - 1];
    if (last?.role === role) (last.content as Json[]).push(...content);
    else messages.push({ role, content });
  };
  walkChatMessages(raw, {
    system: (message, param) => system.push(...systemBlocks(message.content, `${param}.content`)),
    user: (message, param) => push('user', userContent(message.content, `${param}.content`)),
    assistant: (message, param) => push('assistant', assistantContent(message, param)),
    toolResult,
    // Filled in place as further tool messages come: the array itself is the turn's content.
    openToolTurn: (results) => messages.push({ role: 'user', content: results }),
  });
  return { system, messages };
}

function systemBlocks(content: unknown, param: string): Json[] {
  if (typeof content === 'string') return content ? [{ text: content }] : [];
  if (!Array.isArray(content)) throw invalid(param, 'content must be a string or an array of text parts');
  return content.flatMap((part: unknown, j) => {
    if (!isJsonObject(part) || part.type !== 'text' || typeof part.text !== 'string')
      throw invalid(`${param}[${j}]`, 'system content parts must be text parts');
    return part.text ? [marked({ text: part.text }, part)] : [];
  });
}

function userContent(content: unknown, param: string): Json[] {
  if (typeof content === 'string') return [{ text: content }];
  if (!Array.isArray(content)) throw invalid(param, 'content must be a string or an array of parts');
  return content.map((part: unknown, j) => marked(contentPart(part, `${param}[${j}]`), part));
}

/** One OpenAI content part → one Converse content block. Bedrock takes media as bytes only (or S3, not mapped). */
function contentPart(part: unknown, param: string): Json {
  if (!isJsonObject(part)) throw invalid(param, 'each content part must be an object');
  switch (part.type) {
    case 'text':
      if (typeof part.text !== 'string') throw invalid(`${param}.text`, 'text must be a string');
      return { text: part.text };
    case 'image_url': {
      const parsed = parseBase64DataUrl(imageUrlOf(part, param));
      const format = parsed ? IMAGE_FORMATS[parsed.mediaType.toLowerCase()] : undefined;
      if (!parsed || !format)
        throw invalid(`${param}.image_url.url`, 'bedrock takes images as base64 data: URLs of png, jpeg, gif or webp');
      return { image: { format, source: { bytes: parsed.data } } };
    }
    case 'file': {
      const file = isJsonObject(part.file) ? part.file : {};
      const parsed = typeof file.file_data === 'string' ? parseBase64DataUrl(file.file_data) : undefined;
      const format = parsed ? DOCUMENT_FORMATS[parsed.mediaType.toLowerCase()] : undefined;
      if (!parsed || !format)
        throw invalid(`${param}.file.file_data`, 'bedrock takes files as base64 data: URLs of a document type');
      // Converse document names allow letters, digits, spaces, hyphens, parentheses and brackets only.
      const name = typeof file.filename === 'string' ? file.filename.replace(/[^\w\s\-()[\]]/g, '-') : 'document';
      return { document: { format, name: name || 'document', source: { bytes: parsed.data } } };
    }
    default:
      throw invalid(`${param}.type`, 'content part type must be text, image_url or file for bedrock');
  }
}

function assistantContent(message: Json, param: string): Json[] {
  const blocks: Json[] = reasoningBlocks(message.thinking_blocks);
  blocks.push(...assistantTextBlocks(message.content, param));
  const calls = message.tool_calls;
  if (Array.isArray(calls))
    calls.forEach((call: unknown, k) => {
      const read = readToolCall(call, `${param}.tool_calls[${k}]`, true);
      blocks.push(marked({ toolUse: { toolUseId: read.id, name: read.name, input: read.arguments } }, call));
    });
  // Converse refuses an empty turn: an assistant message with nothing in it keeps its place as empty text.
  return blocks.length > 0 ? blocks : [{ text: ' ' }];
}

/** An assistant's text (and refusal) parts as text blocks, each keeping its cache breakpoint. */
function assistantTextBlocks(content: unknown, param: string): Json[] {
  const texts = assistantTexts(content, param);
  if (!Array.isArray(content)) return texts.map((text) => ({ text }));
  // assistantTexts validated every part: each is text or refusal.
  return content.flatMap((part: Json) => {
    const text = (part.type === 'refusal' ? part.refusal : part.text) as string;
    return text ? [marked({ text }, part)] : [];
  });
}

/**
 * Claude's earlier thinking (`thinking_blocks`, as the `/anthropic` and `/bedrock` formats and Claude answers carry
 * them) as Converse `reasoningContent`, first in the turn: with thinking on, Claude refuses a tool-use turn that does
 * not start with its signed thinking.
 */
function reasoningBlocks(raw: unknown): Json[] {
  if (!Array.isArray(raw)) return [];
  return raw.filter(isJsonObject).flatMap((block): Json[] => {
    if (block.type === 'redacted_thinking' && typeof block.data === 'string')
      return [{ reasoningContent: { redactedContent: block.data } }];
    if (block.type !== 'thinking' || typeof block.thinking !== 'string') return [];
    const text: Json = { text: block.thinking };
    if (typeof block.signature === 'string' && block.signature) text.signature = block.signature;
    return [{ reasoningContent: { reasoningText: text } }];
  });
}

function toolResult(message: Json, param: string): Json {
  if (typeof message.tool_call_id !== 'string' || !message.tool_call_id)
    throw invalid(`${param}.tool_call_id`, 'a tool message needs tool_call_id');
  const content = message.content;
  let blocks: Json[];
  if (typeof content === 'string') blocks = [{ text: content }];
  else if (Array.isArray(content)) blocks = content.map((p: unknown, j) => contentPart(p, `${param}.content[${j}]`));
  else throw invalid(`${param}.content`, 'content must be a string or an array of parts');
  return marked({ toolResult: { toolUseId: message.tool_call_id, content: blocks } }, message);
}

function translateTools(tools: unknown): Json[] {
  return readFunctionTools(tools, 'bedrock').map(({ tool, fn }) => {
    const spec: Json = { name: fn.name };
    if (typeof fn.description === 'string') spec.description = fn.description;
    spec.inputSchema = { json: isJsonObject(fn.parameters) ? fn.parameters : { type: 'object', properties: {} } };
    return marked({ toolSpec: spec }, tool);
  });
}

/** Converse has no "none": the tools stay (a history with toolUse blocks needs them) and the model chooses. */
function translateToolChoice(choice: unknown): Json | undefined {
  const read = readToolChoice(choice);
  if (read === undefined || read === 'none') return undefined;
  if (read === 'auto') return { auto: {} };
  if (read === 'required') return { any: {} };
  return { tool: { name: read.name } };
}
