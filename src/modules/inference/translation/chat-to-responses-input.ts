import type { Json } from '../providers/shared/provider-adapter.js';
import { asArray, asObject, asString } from '../providers/shared/wire-json.js';

/**
 * A chat request's prompt as a Responses request's (`instructions`, `input` items, function `tools`), for counting
 * input tokens at OpenAI's `/responses/input_tokens`, which reads `input`, not `messages`: a count_tokens request in
 * the chat shape (from /v1, `/anthropic/…/count_tokens`, `/genai/…:countTokens`) would otherwise count nothing.
 */
export function chatPromptAsResponsesInput(body: Json): Json {
  const out: Json = {};
  for (const [name, value] of Object.entries(body)) {
    if (name !== 'messages' && name !== 'tools' && name !== 'tool_choice') out[name] = value;
  }
  const instructions: string[] = [];
  const input: Json[] = [];
  for (const raw of asArray(body.messages) ?? []) {
    const message = asObject(raw);
    if (!message) continue;
    const role = asString(message.role);
    if (role === 'system' || role === 'developer') {
      const text = textOf(message.content);
      if (text) instructions.push(text);
    } else if (role === 'tool') {
      input.push({
        type: 'function_call_output',
        call_id: message.tool_call_id,
        output: textOf(message.content) ?? '',
      });
    } else if (role === 'user' || role === 'assistant') {
      const content = contentParts(message.content, role);
      if (content.length > 0) input.push({ role, content });
      for (const call of asArray(message.tool_calls) ?? []) {
        const fn = asObject(asObject(call)?.function);
        if (!fn) continue;
        input.push({
          type: 'function_call',
          call_id: asObject(call)?.id,
          name: fn.name,
          arguments: fn.arguments ?? '',
        });
      }
    }
  }
  if (instructions.length > 0) out.instructions = instructions.join('\n\n');
  out.input = input;
  const tools = (asArray(body.tools) ?? []).flatMap((raw) => {
    const fn = asObject(asObject(raw)?.function);
    if (!fn) return [];
    const tool: Json = { type: 'function', name: fn.name, description: fn.description, parameters: fn.parameters };
    if (typeof fn.strict === 'boolean') tool.strict = fn.strict;
    return [tool];
  });
  if (tools.length > 0) out.tools = tools;
  return out;
}

function textOf(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  const texts = (asArray(content) ?? []).map((p) => asString(asObject(p)?.text)).filter((t) => t !== undefined);
  return texts.length > 0 ? texts.join('\n') : undefined;
}

/** Chat content parts as Responses parts: text (input or output by role), images and files; audio has no input part. */
function contentParts(content: unknown, role: 'user' | 'assistant'): Json[] {
  const textType = role === 'user' ? 'input_text' : 'output_text';
  if (typeof content === 'string') return content === '' ? [] : [{ type: textType, text: content }];
  return (asArray(content) ?? []).flatMap((raw): Json[] => {
    const part = asObject(raw);
    if (part?.type === 'text' && typeof part.text === 'string') return [{ type: textType, text: part.text }];
    const image = asObject(part?.image_url);
    const url = asString(image?.url);
    if (part?.type === 'image_url' && url && role === 'user') {
      const detail = asString(image?.detail);
      return [detail ? { type: 'input_image', image_url: url, detail } : { type: 'input_image', image_url: url }];
    }
    const file = asObject(part?.file);
    if (part?.type === 'file' && file && role === 'user') {
      const out: Json = { type: 'input_file' };
      for (const field of ['file_id', 'file_data', 'filename'] as const)
        if (typeof file[field] === 'string') out[field] = file[field];
      return [out];
    }
    return [];
  });
}
