import { GatewayException } from '../../../../../core/errors/gateway.exception.js';
import type { Json } from '../../shared/provider-adapter.js';
import { asArray, asObject, asString, isJsonObject } from '../../shared/wire-json.js';
import { effortOf, keepsAnthropicExtras } from '../../anthropic/format/anthropic-request.js';

/**
 * A Converse request body → the canonical (OpenAI chat) body, without the model (it comes from the path). Every shape
 * error is a 400 naming the Converse field (`messages[1].content[0]`), which the format renders as a
 * ValidationException.
 */

const invalid = (param: string, message: string) => GatewayException.validation(param, message);

/** Converse document formats → media types (a `file` part carries them as a data URL). */
const DOCUMENT_TYPES: Readonly<Record<string, string>> = {
  pdf: 'application/pdf',
  csv: 'text/csv',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xls: 'application/vnd.ms-excel',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  html: 'text/html',
  txt: 'text/plain',
  md: 'text/markdown',
};

function objectAt(value: unknown, param: string): Json {
  if (!isJsonObject(value)) throw invalid(param, `${param} must be an object`);
  return value;
}

function stringAt(value: unknown, param: string): string {
  if (typeof value !== 'string') throw invalid(param, `${param} must be a string`);
  return value;
}

/** `source.bytes`: base64 in JSON (the SDK encodes a Uint8Array so). */
function bytesOf(block: Json, param: string): string {
  const source = objectAt(block.source, `${param}.source`);
  const bytes = source.bytes;
  if (typeof bytes !== 'string' || bytes === '') {
    throw invalid(`${param}.source.bytes`, `${param}.source.bytes must be base64 bytes (S3 sources are not supported)`);
  }
  return bytes;
}

function imagePart(block: Json, param: string): Json {
  const format = stringAt(block.format, `${param}.format`);
  return { type: 'image_url', image_url: { url: `data:image/${format};base64,${bytesOf(block, param)}` } };
}

function documentPart(block: Json, param: string): Json {
  const format = stringAt(block.format, `${param}.format`);
  const mediaType = DOCUMENT_TYPES[format];
  if (!mediaType)
    throw invalid(`${param}.format`, `${param}.format must be one of ${Object.keys(DOCUMENT_TYPES).join(', ')}`);
  const data = bytesOf(block, param);
  // Plain-text documents are text to every provider; binary ones travel as a file part.
  if (mediaType.startsWith('text/')) {
    const name = asString(block.name);
    const text = Buffer.from(data, 'base64').toString('utf8');
    return { type: 'text', text: name ? `${name}:\n${text}` : text };
  }
  return {
    type: 'file',
    file: { filename: asString(block.name) ?? `document.${format}`, file_data: `data:${mediaType};base64,${data}` },
  };
}

/** A toolResult's content as the tool message's text: text blocks as they are, json blocks serialized. */
function toolResultText(block: Json, param: string): string {
  const parts = asArray(block.content);
  if (!parts) throw invalid(`${param}.content`, `${param}.content must be an array`);
  return parts
    .map((raw, k) => {
      const part = objectAt(raw, `${param}.content[${k}]`);
      if (typeof part.text === 'string') return part.text;
      if (part.json !== undefined) return JSON.stringify(part.json);
      throw invalid(`${param}.content[${k}]`, `${param}.content[${k}] must be a text or json block`);
    })
    .join('\n');
}

function userMessages(content: unknown[], param: string): Json[] {
  const tools: Json[] = [];
  const parts: Json[] = [];
  content.forEach((raw, j) => {
    const at = `${param}[${j}]`;
    const block = objectAt(raw, at);
    if (typeof block.text === 'string') parts.push({ type: 'text', text: block.text });
    else if (block.image !== undefined) parts.push(imagePart(objectAt(block.image, `${at}.image`), `${at}.image`));
    else if (block.document !== undefined)
      parts.push(documentPart(objectAt(block.document, `${at}.document`), `${at}.document`));
    else if (block.toolResult !== undefined) {
      const result = objectAt(block.toolResult, `${at}.toolResult`);
      const text = toolResultText(result, `${at}.toolResult`);
      tools.push({
        role: 'tool',
        tool_call_id: stringAt(result.toolUseId, `${at}.toolResult.toolUseId`),
        content: result.status === 'error' ? `Error: ${text}` : text,
      });
    } else if (block.cachePoint === undefined) {
      throw invalid(at, `${at} must be a text, image, document, toolResult or cachePoint block`);
    }
  });
  // OpenAI wants tool results right after the assistant turn that called the tools, before any new user text.
  const out = [...tools];
  if (parts.length > 0) out.push({ role: 'user', content: parts });
  return out;
}

/** Earlier signed reasoning as Claude's `thinking_blocks` (signature or redacted data byte for byte). */
function thinkingBlockOf(reasoning: unknown, at: string): Json | undefined {
  const r = objectAt(reasoning, at);
  if (typeof r.redactedContent === 'string') return { type: 'redacted_thinking', data: r.redactedContent };
  const text = asObject(r.reasoningText);
  if (!text) return undefined;
  const block: Json = { type: 'thinking', thinking: stringAt(text.text, `${at}.reasoningText.text`) };
  if (typeof text.signature === 'string') block.signature = text.signature;
  return block;
}

function assistantMessage(content: unknown[], param: string, claude: boolean): Json {
  const texts: string[] = [];
  const calls: Json[] = [];
  const thinking: Json[] = [];
  content.forEach((raw, j) => {
    const at = `${param}[${j}]`;
    const block = objectAt(raw, at);
    if (typeof block.text === 'string') texts.push(block.text);
    else if (block.toolUse !== undefined) {
      const use = objectAt(block.toolUse, `${at}.toolUse`);
      calls.push({
        id: stringAt(use.toolUseId, `${at}.toolUse.toolUseId`),
        type: 'function',
        function: { name: stringAt(use.name, `${at}.toolUse.name`), arguments: JSON.stringify(use.input ?? {}) },
      });
    } else if (block.reasoningContent !== undefined) {
      // Claude checks the signed thinking that preceded its tool use; no other provider takes earlier reasoning.
      const replayed = claude ? thinkingBlockOf(block.reasoningContent, `${at}.reasoningContent`) : undefined;
      if (replayed) thinking.push(replayed);
    } else if (block.cachePoint === undefined) {
      throw invalid(at, `${at} must be a text, toolUse, reasoningContent or cachePoint block`);
    }
  });
  const message: Json = { role: 'assistant', content: texts.length > 0 ? texts.join('') : null };
  if (calls.length > 0) message.tool_calls = calls;
  if (thinking.length > 0) message.thinking_blocks = thinking;
  return message;
}

function messagesOf(raw: unknown, claude: boolean): Json[] {
  const messages = asArray(raw);
  if (!messages || messages.length === 0) throw invalid('messages', 'messages must be a non-empty array');
  const out: Json[] = [];
  messages.forEach((rawMessage, i) => {
    const message = objectAt(rawMessage, `messages[${i}]`);
    const content = asArray(message.content);
    if (!content) throw invalid(`messages[${i}].content`, `messages[${i}].content must be an array`);
    if (message.role === 'user') out.push(...userMessages(content, `messages[${i}].content`));
    else if (message.role === 'assistant') out.push(assistantMessage(content, `messages[${i}].content`, claude));
    else throw invalid(`messages[${i}].role`, `messages[${i}].role must be user or assistant`);
  });
  return out;
}

function systemOf(raw: unknown): string | undefined {
  if (raw === undefined) return undefined;
  const blocks = asArray(raw);
  if (!blocks) throw invalid('system', 'system must be an array');
  const texts = blocks.map((b, i) => {
    const block = objectAt(b, `system[${i}]`);
    if (typeof block.text === 'string') return block.text;
    if (block.cachePoint !== undefined || block.guardContent !== undefined) return undefined;
    throw invalid(`system[${i}]`, `system[${i}] must be a text block`);
  });
  const text = texts.filter((t) => t !== undefined).join('\n');
  return text === '' ? undefined : text;
}

function inferenceConfigInto(out: Json, raw: unknown): void {
  if (raw === undefined) return;
  const config = objectAt(raw, 'inferenceConfig');
  const numbers = [
    ['maxTokens', 'max_tokens'],
    ['temperature', 'temperature'],
    ['topP', 'top_p'],
  ] as const;
  for (const [from, to] of numbers) {
    if (config[from] === undefined) continue;
    if (typeof config[from] !== 'number')
      throw invalid(`inferenceConfig.${from}`, `inferenceConfig.${from} must be a number`);
    out[to] = config[from];
  }
  if (config.stopSequences !== undefined) {
    const stops = asArray(config.stopSequences);
    if (!stops || stops.some((s) => typeof s !== 'string'))
      throw invalid('inferenceConfig.stopSequences', 'inferenceConfig.stopSequences must be an array of strings');
    if (stops.length > 0) out.stop = stops;
  }
}

function toolConfigInto(out: Json, raw: unknown): void {
  if (raw === undefined) return;
  const config = objectAt(raw, 'toolConfig');
  const tools = asArray(config.tools);
  if (!tools) throw invalid('toolConfig.tools', 'toolConfig.tools must be an array');
  const functions: Json[] = [];
  tools.forEach((t, i) => {
    const at = `toolConfig.tools[${i}]`;
    const tool = objectAt(t, at);
    if (tool.cachePoint !== undefined) return;
    const spec = objectAt(tool.toolSpec, `${at}.toolSpec`);
    const fn: Json = { name: stringAt(spec.name, `${at}.toolSpec.name`) };
    if (typeof spec.description === 'string') fn.description = spec.description;
    const schema = asObject(spec.inputSchema)?.json;
    fn.parameters = isJsonObject(schema) ? schema : { type: 'object', properties: {} };
    functions.push({ type: 'function', function: fn });
  });
  if (functions.length > 0) out.tools = functions;
  if (config.toolChoice === undefined) return;
  const choice = objectAt(config.toolChoice, 'toolConfig.toolChoice');
  if (choice.auto !== undefined) out.tool_choice = 'auto';
  else if (choice.any !== undefined) out.tool_choice = 'required';
  else if (choice.tool !== undefined) {
    const name = stringAt(asObject(choice.tool)?.name, 'toolConfig.toolChoice.tool.name');
    out.tool_choice = { type: 'function', function: { name } };
  } else throw invalid('toolConfig.toolChoice', 'toolConfig.toolChoice must be auto, any or tool');
}

/** The Converse body as a canonical chat body for `model`; `stream` for ConverseStream. */
export function converseToChat(raw: unknown, model: string, stream: boolean): Json {
  const body = objectAt(raw ?? {}, 'body');
  const system = systemOf(body.system);
  const claude = keepsAnthropicExtras(model);
  const messages = messagesOf(body.messages, claude);
  const out: Json = {
    model,
    messages: system === undefined ? messages : [{ role: 'system', content: system }, ...messages],
  };
  inferenceConfigInto(out, body.inferenceConfig);
  toolConfigInto(out, body.toolConfig);
  if (stream) out.stream = true;
  if (body.additionalModelRequestFields !== undefined) {
    // Model-specific fields (`top_k`, Claude's `thinking`, `reasoning_effort`) go to the canonical body as they are;
    // they never replace what the Converse fields said.
    const extra = objectAt(body.additionalModelRequestFields, 'additionalModelRequestFields');
    for (const [key, value] of Object.entries(extra)) if (!(key in out)) out[key] = value;
    // Claude's `thinking` means nothing to other providers (OpenAI refuses unknown members): they get an effort.
    const thinking = asObject(extra.thinking);
    if (thinking && !claude) {
      delete out.thinking;
      if (thinking.type !== 'disabled' && !('reasoning_effort' in out))
        out.reasoning_effort = effortOf(thinking.budget_tokens);
    }
  }
  return out;
}
