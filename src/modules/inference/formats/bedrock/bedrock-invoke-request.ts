import { GatewayException } from '../../../../core/errors/gateway.exception.js';
import type { Json } from '../../providers/provider-adapter.js';
import { asArray, asObject, asString, isJsonObject, parseJson } from '../../providers/wire-json.js';

/**
 * InvokeModel's body is the model's own. The Anthropic Claude body (Anthropic Messages without `model`, with
 * `anthropic_version: "bedrock-2023-05-31"`) is converted to the canonical chat body; other model-native bodies
 * (Titan, Llama, Mistral, Cohere on Bedrock) are refused with a ValidationException naming the body.
 * Minimal inbound Anthropic conversion, kept here until the `/anthropic` format's own can serve it.
 */

const invalid = (param: string, message: string) => GatewayException.validation(param, message);

/** The body as JSON: the SDK sends the bytes the caller gave, typed `application/json` or not at all. */
export function invokeBodyOf(raw: unknown): Json {
  let body = raw;
  if (Buffer.isBuffer(raw)) {
    try {
      body = parseJson(raw.toString('utf8'));
    } catch {
      throw invalid('body', 'The InvokeModel body must be JSON');
    }
  }
  if (!isJsonObject(body)) throw invalid('body', 'The InvokeModel body must be a JSON object');
  if (typeof body.anthropic_version !== 'string') {
    throw invalid(
      'body',
      'InvokeModel accepts the Anthropic Claude body (anthropic_version "bedrock-2023-05-31"); for other models use Converse',
    );
  }
  return body;
}

function objectAt(value: unknown, param: string): Json {
  if (!isJsonObject(value)) throw invalid(param, `${param} must be an object`);
  return value;
}

function stringAt(value: unknown, param: string): string {
  if (typeof value !== 'string') throw invalid(param, `${param} must be a string`);
  return value;
}

function imagePart(block: Json, param: string): Json {
  const source = objectAt(block.source, `${param}.source`);
  if (source.type === 'url')
    return { type: 'image_url', image_url: { url: stringAt(source.url, `${param}.source.url`) } };
  const mediaType = stringAt(source.media_type, `${param}.source.media_type`);
  return {
    type: 'image_url',
    image_url: { url: `data:${mediaType};base64,${stringAt(source.data, `${param}.source.data`)}` },
  };
}

function documentPart(block: Json, param: string): Json {
  const source = objectAt(block.source, `${param}.source`);
  if (source.type === 'text') return { type: 'text', text: stringAt(source.data, `${param}.source.data`) };
  const mediaType = stringAt(source.media_type, `${param}.source.media_type`);
  const data = stringAt(source.data, `${param}.source.data`);
  return {
    type: 'file',
    file: { filename: asString(block.title) ?? 'document', file_data: `data:${mediaType};base64,${data}` },
  };
}

/** A tool_result's content as text (text blocks joined; other blocks serialized). */
function toolResultText(content: unknown): string {
  if (typeof content === 'string') return content;
  return (asArray(content) ?? [])
    .map((b) => {
      const block = asObject(b) ?? {};
      return typeof block.text === 'string' ? block.text : JSON.stringify(block);
    })
    .join('\n');
}

function contentBlocks(content: unknown, param: string): Json[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  const blocks = asArray(content);
  if (!blocks) throw invalid(param, `${param} must be a string or an array of blocks`);
  return blocks.map((b, j) => objectAt(b, `${param}[${j}]`));
}

function userMessages(content: unknown, param: string): Json[] {
  const tools: Json[] = [];
  const parts: Json[] = [];
  contentBlocks(content, param).forEach((block, j) => {
    const at = `${param}[${j}]`;
    switch (block.type) {
      case 'text':
        parts.push({ type: 'text', text: stringAt(block.text, `${at}.text`) });
        break;
      case 'image':
        parts.push(imagePart(block, at));
        break;
      case 'document':
        parts.push(documentPart(block, at));
        break;
      case 'tool_result': {
        const text = toolResultText(block.content);
        tools.push({
          role: 'tool',
          tool_call_id: stringAt(block.tool_use_id, `${at}.tool_use_id`),
          content: block.is_error === true ? `Error: ${text}` : text,
        });
        break;
      }
      default:
        throw invalid(at, `${at} must be a text, image, document or tool_result block`);
    }
  });
  const out = [...tools];
  if (parts.length > 0) out.push({ role: 'user', content: parts });
  return out;
}

function assistantMessage(content: unknown, param: string): Json {
  const texts: string[] = [];
  const calls: Json[] = [];
  contentBlocks(content, param).forEach((block, j) => {
    const at = `${param}[${j}]`;
    if (block.type === 'text') texts.push(stringAt(block.text, `${at}.text`));
    else if (block.type === 'tool_use') {
      calls.push({
        id: stringAt(block.id, `${at}.id`),
        type: 'function',
        function: { name: stringAt(block.name, `${at}.name`), arguments: JSON.stringify(block.input ?? {}) },
      });
    } else if (block.type !== 'thinking' && block.type !== 'redacted_thinking') {
      throw invalid(at, `${at} must be a text, tool_use or thinking block`);
    }
  });
  const message: Json = { role: 'assistant', content: texts.length > 0 ? texts.join('') : null };
  if (calls.length > 0) message.tool_calls = calls;
  return message;
}

function systemOf(raw: unknown): string | undefined {
  if (raw === undefined) return undefined;
  if (typeof raw === 'string') return raw;
  const blocks = asArray(raw);
  if (!blocks) throw invalid('system', 'system must be a string or an array of text blocks');
  return blocks.map((b, i) => stringAt(asObject(b)?.text, `system[${i}].text`)).join('\n');
}

function toolChoiceOf(raw: unknown): unknown {
  const choice = objectAt(raw, 'tool_choice');
  switch (choice.type) {
    case 'auto':
      return 'auto';
    case 'any':
      return 'required';
    case 'none':
      return 'none';
    case 'tool':
      return { type: 'function', function: { name: stringAt(choice.name, 'tool_choice.name') } };
    default:
      throw invalid('tool_choice.type', 'tool_choice.type must be auto, any, tool or none');
  }
}

/** The Claude body as the canonical chat body for `model`. */
export function claudeToChat(body: Json, model: string, stream: boolean): Json {
  if (typeof body.max_tokens !== 'number') throw invalid('max_tokens', 'max_tokens must be a number');
  const messages = asArray(body.messages);
  if (!messages || messages.length === 0) throw invalid('messages', 'messages must be a non-empty array');
  const out: Json = { model, messages: [] as Json[] };
  const chat = out.messages as Json[];
  const system = systemOf(body.system);
  if (system) chat.push({ role: 'system', content: system });
  messages.forEach((raw, i) => {
    const message = objectAt(raw, `messages[${i}]`);
    if (message.role === 'user') chat.push(...userMessages(message.content, `messages[${i}].content`));
    else if (message.role === 'assistant') chat.push(assistantMessage(message.content, `messages[${i}].content`));
    else throw invalid(`messages[${i}].role`, `messages[${i}].role must be user or assistant`);
  });
  out.max_tokens = body.max_tokens;
  for (const field of ['temperature', 'top_p', 'top_k'] as const)
    if (typeof body[field] === 'number') out[field] = body[field];
  if (body.stop_sequences !== undefined) out.stop = body.stop_sequences;
  if (body.thinking !== undefined) out.thinking = body.thinking;
  const tools = asArray(body.tools);
  if (tools && tools.length > 0) {
    out.tools = tools.map((t, i) => {
      const tool = objectAt(t, `tools[${i}]`);
      const fn: Json = { name: stringAt(tool.name, `tools[${i}].name`) };
      if (typeof tool.description === 'string') fn.description = tool.description;
      fn.parameters = isJsonObject(tool.input_schema) ? tool.input_schema : { type: 'object', properties: {} };
      return { type: 'function', function: fn };
    });
  }
  if (body.tool_choice !== undefined) out.tool_choice = toolChoiceOf(body.tool_choice);
  if (stream) out.stream = true;
  return out;
}
