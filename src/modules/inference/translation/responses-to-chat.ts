import { GatewayException } from '../../../core/errors/gateway.exception.js';
import type { Json } from '../providers/shared/provider-adapter.js';
import { asArray, asObject, asString } from '../providers/shared/wire-json.js';

/**
 * A Responses API request → a chat completions request, for providers without `/responses`.
 *
 * Carried over: `instructions` (system message), `input` (a string, or message / function_call /
 * function_call_output items with input_text, input_image, input_file and input_audio parts), function `tools`,
 * `tool_choice`, `parallel_tool_calls`, `max_output_tokens` (→ `max_tokens`), `reasoning.effort`
 * (→ `reasoning_effort`), `temperature`, `top_p`, `text.format` (→ `response_format`), `user`, `stream`.
 * Dropped, as they mean nothing to a chat provider: `store`, `metadata`, `include`, `truncation`, `service_tier`,
 * `prompt_cache_key`, `safety_identifier`, `reasoning.summary`, `text.verbosity`, and `reasoning` input items.
 * Refused with 400 `unsupported_operation`: server-side state (`previous_response_id`, `conversation`, `prompt`,
 * `background`), hosted tools and other item types.
 */
export function responsesToChatRequest(body: Json): Json {
  refuseServerState(body);
  const messages: Json[] = [];
  if (typeof body.instructions === 'string' && body.instructions !== '') {
    messages.push({ role: 'system', content: body.instructions });
  }
  appendInput(messages, body.input);

  const chat: Json = { model: body.model, messages };
  if (body.tools !== undefined && body.tools !== null) chat.tools = chatTools(body.tools);
  if (body.tool_choice !== undefined && body.tool_choice !== null) chat.tool_choice = chatToolChoice(body.tool_choice);
  for (const field of ['parallel_tool_calls', 'temperature', 'top_p', 'user'] as const) {
    if (body[field] !== undefined && body[field] !== null) chat[field] = body[field];
  }
  if (typeof body.max_output_tokens === 'number') chat.max_tokens = body.max_output_tokens;
  const effort = asObject(body.reasoning)?.effort;
  if (typeof effort === 'string') chat.reasoning_effort = effort;
  const format = chatResponseFormat(asObject(body.text)?.format);
  if (format) chat.response_format = format;
  if (body.stream === true) {
    chat.stream = true;
    chat.stream_options = { include_usage: true };
  }
  return chat;
}

function unsupported(param: string, message: string): GatewayException {
  return new GatewayException(400, 'unsupported_operation', message, { param, reason: 'caller_invalid_request' });
}

function refuseServerState(body: Json): void {
  for (const field of ['previous_response_id', 'conversation', 'prompt'] as const) {
    if (body[field] !== undefined && body[field] !== null) {
      throw unsupported(field, `${field} needs stored responses, which this provider does not keep`);
    }
  }
  if (body.background === true) {
    throw unsupported('background', 'Background responses are not supported for this provider');
  }
}

function appendInput(messages: Json[], input: unknown): void {
  if (typeof input === 'string') {
    messages.push({ role: 'user', content: input });
    return;
  }
  const items = asArray(input);
  if (!items) throw GatewayException.validation('input', 'input must be a string or an array of input items');
  items.forEach((raw, i) => {
    const item = asObject(raw);
    if (!item) throw GatewayException.validation(`input[${i}]`, 'An input item must be an object');
    const type = asString(item.type) ?? (item.role !== undefined ? 'message' : '');
    switch (type) {
      case 'message':
        messages.push(chatMessage(item, `input[${i}]`));
        return;
      case 'function_call':
        appendToolCall(messages, item, `input[${i}]`);
        return;
      case 'function_call_output':
        messages.push({
          role: 'tool',
          tool_call_id: requiredString(item.call_id, `input[${i}].call_id`),
          content: toolOutput(item.output),
        });
        return;
      case 'reasoning':
        // Reasoning of an earlier turn: chat providers neither need nor accept it back.
        return;
      default:
        throw unsupported(`input[${i}].type`, `Input items of type ${type || 'none'} need the native Responses API`);
    }
  });
}

function requiredString(v: unknown, param: string): string {
  if (typeof v !== 'string' || v === '')
    throw GatewayException.validation(param, `${param} must be a non-empty string`);
  return v;
}

const CHAT_ROLES: Record<string, string> = {
  user: 'user',
  assistant: 'assistant',
  system: 'system',
  // Not every chat provider knows `developer`; system is what it means to them.
  developer: 'system',
};

function chatMessage(item: Json, param: string): Json {
  const role = CHAT_ROLES[asString(item.role) ?? ''];
  if (!role) throw GatewayException.validation(`${param}.role`, 'role must be user, assistant, system or developer');
  const content = item.content;
  if (typeof content === 'string') return { role, content };
  const parts = asArray(content);
  if (!parts) throw GatewayException.validation(`${param}.content`, 'content must be a string or an array of parts');
  const chatParts = parts.map((part, j) => chatPart(asObject(part), `${param}.content[${j}]`));
  if (chatParts.every((p) => p.type === 'text')) {
    const texts = chatParts.map((p) => p.text as string);
    // Assistant and system turns as one string: several providers accept nothing else there.
    if (role !== 'user') return { role, content: texts.join(role === 'assistant' ? '' : '\n') };
  }
  return { role, content: chatParts };
}

function chatPart(part: Json | undefined, param: string): Json {
  switch (part?.type) {
    case 'input_text':
    case 'output_text':
    case 'text':
      return { type: 'text', text: asString(part.text) ?? '' };
    case 'refusal':
      return { type: 'text', text: asString(part.refusal) ?? '' };
    case 'input_image': {
      const url = asString(part.image_url);
      if (!url) throw unsupported(`${param}.file_id`, 'Images by file_id need the native Responses API');
      const image: Json = { url };
      if (typeof part.detail === 'string') image.detail = part.detail;
      return { type: 'image_url', image_url: image };
    }
    case 'input_file': {
      const file: Json = {};
      for (const field of ['file_data', 'file_id', 'filename'] as const) {
        if (typeof part[field] === 'string') file[field] = part[field];
      }
      return { type: 'file', file };
    }
    case 'input_audio':
      return { type: 'input_audio', input_audio: part.input_audio };
    default:
      throw unsupported(`${param}.type`, `Content parts of type ${String(part?.type)} are not supported here`);
  }
}

/** Consecutive function calls become the tool_calls of one assistant message, as chat models emit them. */
function appendToolCall(messages: Json[], item: Json, param: string): void {
  const call = {
    id: requiredString(item.call_id, `${param}.call_id`),
    type: 'function',
    function: { name: requiredString(item.name, `${param}.name`), arguments: asString(item.arguments) ?? '{}' },
  };
  const last = messages[messages.length - 1];
  if (last?.role === 'assistant') {
    const calls = asArray(last.tool_calls);
    if (calls) calls.push(call);
    else last.tool_calls = [call];
    if (last.content === '') last.content = null;
    return;
  }
  messages.push({ role: 'assistant', content: null, tool_calls: [call] });
}

function toolOutput(output: unknown): string {
  if (typeof output === 'string') return output;
  const parts = asArray(output);
  if (parts) {
    return parts
      .map((p) => asString(asObject(p)?.text))
      .filter((t): t is string => t !== undefined)
      .join('');
  }
  return JSON.stringify(output ?? '');
}

function chatTools(tools: unknown): Json[] {
  const list = asArray(tools);
  if (!list) throw GatewayException.validation('tools', 'tools must be an array');
  return list.map((raw, i) => {
    const tool = asObject(raw);
    if (tool?.type !== 'function') {
      throw unsupported(`tools[${i}].type`, `Tools of type ${String(tool?.type)} need the native Responses API`);
    }
    const fn: Json = { name: requiredString(tool.name, `tools[${i}].name`) };
    for (const field of ['description', 'parameters', 'strict'] as const) {
      if (tool[field] !== undefined && tool[field] !== null) fn[field] = tool[field];
    }
    return { type: 'function', function: fn };
  });
}

function functionChoice(choice: Json, param: string): Json {
  return { type: 'function', function: { name: requiredString(choice.name, `${param}.name`) } };
}

function chatToolChoice(choice: unknown): unknown {
  if (typeof choice === 'string') return choice;
  const o = asObject(choice);
  if (o?.type === 'function') return functionChoice(o, 'tool_choice');
  if (o?.type === 'allowed_tools') {
    const tools = (asArray(o.tools) ?? []).map((t, i) => {
      const tool = asObject(t);
      if (tool?.type !== 'function') throw unsupported(`tool_choice.tools[${i}].type`, 'Only function tools');
      return functionChoice(tool, `tool_choice.tools[${i}]`);
    });
    return { type: 'allowed_tools', allowed_tools: { mode: o.mode ?? 'auto', tools } };
  }
  throw unsupported('tool_choice', `tool_choice of type ${String(o?.type)} needs the native Responses API`);
}

function chatResponseFormat(format: unknown): Json | undefined {
  const f = asObject(format);
  if (!f || f.type === 'text') return undefined;
  if (f.type === 'json_object') return { type: 'json_object' };
  if (f.type === 'json_schema') {
    const schema: Json = { name: f.name };
    for (const field of ['schema', 'strict', 'description'] as const) {
      if (f[field] !== undefined && f[field] !== null) schema[field] = f[field];
    }
    return { type: 'json_schema', json_schema: schema };
  }
  throw unsupported('text.format.type', `text.format of type ${String(f.type)} is not supported here`);
}
