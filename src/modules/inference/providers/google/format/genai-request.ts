import { GatewayException } from '../../../../../core/errors/gateway.exception.js';
import type { Json } from '../../shared/provider-adapter.js';
import { isJsonObject } from '../../shared/wire-json.js';
import { genaiGenerationSettings } from './genai-generation-config.js';
import { jsonSchema } from './genai-schema.js';

/**
 * Gemini `generateContent` / `countTokens` bodies → the canonical (OpenAI chat) body: the inverse of
 * `providers/google/gemini-contents.ts`. Gemini names no tool call ids, so each functionCall gets `call_<n>` and a later
 * functionResponse answers the oldest unanswered call of its name.
 */

const invalid = (param: string, message: string) => GatewayException.validation(param, message);

/** The prompt half (contents, systemInstruction, tools, toolConfig) as chat fields. */
export function genaiPrompt(body: Json, param = ''): Json {
  const at = (field: string) => (param ? `${param}.${field}` : field);
  if (!Array.isArray(body.contents) || body.contents.length === 0)
    throw invalid(at('contents'), 'contents must be a non-empty array of Content objects');
  const messages: Json[] = [];
  const system = systemMessage(body.systemInstruction, at('systemInstruction'));
  if (system) messages.push(system);
  const calls = new PendingCalls();
  (body.contents as unknown[]).forEach((content, i) => messages.push(...turn(content, at(`contents[${i}]`), calls)));
  const out: Json = { messages };
  if (body.tools !== undefined) {
    const tools = functionTools(body.tools, at('tools'));
    if (tools.length > 0) out.tools = tools;
  }
  const choice = toolChoice(body.toolConfig, at('toolConfig'));
  if (choice !== undefined) out.tool_choice = choice;
  return out;
}

/** A generateContent body as the canonical chat body (without model and stream, which the route gives). */
export function genaiGenerateContent(body: unknown): Json {
  if (!isJsonObject(body)) throw invalid('body', 'The request body must be a JSON object');
  return { ...genaiPrompt(body), ...genaiGenerationSettings(body.generationConfig) };
}

/** countTokens takes `contents`, or a whole `generateContentRequest`. */
export function genaiCountTokens(body: unknown): Json {
  if (!isJsonObject(body)) throw invalid('body', 'The request body must be a JSON object');
  if (body.contents === undefined && isJsonObject(body.generateContentRequest))
    return genaiPrompt(body.generateContentRequest, 'generateContentRequest');
  return genaiPrompt(body);
}

/** Function calls of the model turns waiting for their functionResponse, by name, oldest first. */
class PendingCalls {
  private next = 0;
  private readonly open = new Map<string, string[]>();

  add(name: string): string {
    const id = `call_${this.next++}`;
    const ids = this.open.get(name) ?? [];
    ids.push(id);
    this.open.set(name, ids);
    return id;
  }

  /** The id of the oldest unanswered call of `name`; a response to no call gets an id of its own. */
  answer(name: string): string {
    return this.open.get(name)?.shift() ?? `call_${this.next++}`;
  }
}

function systemMessage(instruction: unknown, param: string): Json | undefined {
  if (instruction === undefined || instruction === null) return undefined;
  if (typeof instruction === 'string') return { role: 'system', content: instruction };
  if (!isJsonObject(instruction) || !Array.isArray(instruction.parts))
    throw invalid(param, 'systemInstruction must be a Content object with parts');
  const texts = (instruction.parts as unknown[]).map((part, j) => {
    if (!isJsonObject(part) || typeof part.text !== 'string')
      throw invalid(`${param}.parts[${j}]`, 'systemInstruction parts must be text parts');
    return part.text;
  });
  if (texts.length === 0) return undefined;
  return { role: 'system', content: texts.length === 1 ? texts[0] : texts.map((text) => ({ type: 'text', text })) };
}

/** One Content → chat messages: a model turn is one assistant message; a user turn its tool results, then its text. */
function turn(content: unknown, param: string, calls: PendingCalls): Json[] {
  if (!isJsonObject(content)) throw invalid(param, 'each content must be an object');
  const role = content.role ?? 'user';
  if (role !== 'user' && role !== 'model' && role !== 'function')
    throw invalid(`${param}.role`, 'role must be user or model');
  if (!Array.isArray(content.parts) || content.parts.length === 0)
    throw invalid(`${param}.parts`, 'parts must be a non-empty array');
  const parts = content.parts as unknown[];
  if (role === 'model') return [modelMessage(parts, param, calls)];
  const results: Json[] = [];
  const user: Json[] = [];
  parts.forEach((raw, j) => {
    const at = `${param}.parts[${j}]`;
    const part = readPart(raw, at);
    if (isJsonObject(part.functionResponse)) results.push(toolResult(part.functionResponse, at, calls));
    else if (isJsonObject(part.functionCall)) throw invalid(at, 'functionCall parts belong to model turns');
    else if (part.thought !== true) user.push(mediaOrText(part, at));
  });
  if (user.length > 0) {
    const text = user.length === 1 && user[0]!.type === 'text' ? user[0]!.text : undefined;
    results.push({ role: 'user', content: text ?? user });
  }
  return results;
}

const PART_KINDS = ['text', 'inlineData', 'fileData', 'functionCall', 'functionResponse'] as const;

function readPart(raw: unknown, param: string): Json {
  if (!isJsonObject(raw) || !PART_KINDS.some((kind) => raw[kind] !== undefined))
    throw invalid(param, 'a part must hold one of text, inlineData, fileData, functionCall or functionResponse');
  if (raw.text !== undefined && typeof raw.text !== 'string') throw invalid(`${param}.text`, 'text must be a string');
  return raw;
}

function modelMessage(parts: unknown[], param: string, calls: PendingCalls): Json {
  const texts: string[] = [];
  const toolCalls: Json[] = [];
  parts.forEach((raw, j) => {
    const at = `${param}.parts[${j}]`;
    const part = readPart(raw, at);
    if (typeof part.text === 'string') {
      // Thought summaries of earlier turns are not replayed (no provider takes them back as text).
      if (part.thought !== true) texts.push(part.text);
      return;
    }
    const call = part.functionCall;
    if (!isJsonObject(call)) throw invalid(at, 'model turns hold text and functionCall parts');
    if (typeof call.name !== 'string' || call.name === '')
      throw invalid(`${at}.functionCall.name`, 'functionCall.name must be a non-empty string');
    if (call.args !== undefined && !isJsonObject(call.args))
      throw invalid(`${at}.functionCall.args`, 'functionCall.args must be an object');
    toolCalls.push({
      id: calls.add(call.name),
      type: 'function',
      function: { name: call.name, arguments: JSON.stringify(call.args ?? {}) },
    });
  });
  const message: Json = { role: 'assistant', content: texts.length > 0 ? texts.join('') : null };
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  else if (message.content === null) message.content = '';
  return message;
}

function toolResult(response: Json, param: string, calls: PendingCalls): Json {
  if (typeof response.name !== 'string' || response.name === '')
    throw invalid(`${param}.functionResponse.name`, 'functionResponse.name must be a non-empty string');
  if (response.response !== undefined && !isJsonObject(response.response))
    throw invalid(`${param}.functionResponse.response`, 'functionResponse.response must be an object');
  return {
    role: 'tool',
    tool_call_id: calls.answer(response.name),
    content: JSON.stringify(response.response ?? {}),
  };
}

/** text, inlineData (a data: URL) or fileData (a URL) → one OpenAI content part. */
function mediaOrText(part: Json, param: string): Json {
  if (typeof part.text === 'string') return { type: 'text', text: part.text };
  if (isJsonObject(part.inlineData)) {
    const { mimeType, data } = part.inlineData;
    if (typeof mimeType !== 'string' || typeof data !== 'string')
      throw invalid(`${param}.inlineData`, 'inlineData needs mimeType and data');
    if (mimeType.startsWith('audio/'))
      return { type: 'input_audio', input_audio: { data, format: mimeType.slice('audio/'.length) } };
    const url = `data:${mimeType};base64,${data}`;
    return mimeType.startsWith('image/') ? { type: 'image_url', image_url: { url } } : fileOf(url);
  }
  if (isJsonObject(part.fileData)) {
    const { mimeType, fileUri } = part.fileData;
    if (typeof fileUri !== 'string' || fileUri === '')
      throw invalid(`${param}.fileData.fileUri`, 'fileData.fileUri must be a non-empty string');
    const image = typeof mimeType !== 'string' || mimeType.startsWith('image/');
    return image ? { type: 'image_url', image_url: { url: fileUri } } : fileOf(fileUri);
  }
  throw invalid(param, 'a user part must hold text, inlineData, fileData or functionResponse');
}

const fileOf = (url: string): Json => ({ type: 'file', file: { file_data: url } });

function functionTools(tools: unknown, param: string): Json[] {
  if (!Array.isArray(tools)) throw invalid(param, 'tools must be an array');
  return (tools as unknown[]).flatMap((tool, i) => {
    const at = `${param}[${i}]`;
    if (!isJsonObject(tool) || !Array.isArray(tool.functionDeclarations))
      throw invalid(at, 'only functionDeclarations tools are served through /genai');
    return (tool.functionDeclarations as unknown[]).map((raw, k) => {
      const declaration = `${at}.functionDeclarations[${k}]`;
      if (!isJsonObject(raw) || typeof raw.name !== 'string' || raw.name === '')
        throw invalid(`${declaration}.name`, 'a function declaration needs a name');
      const fn: Json = { name: raw.name };
      if (typeof raw.description === 'string') fn.description = raw.description;
      const schema = raw.parametersJsonSchema ?? raw.parameters;
      fn.parameters = isJsonObject(schema) ? jsonSchema(schema) : { type: 'object', properties: {} };
      return { type: 'function', function: fn };
    });
  });
}

const FUNCTION_CALLING_MODES: Readonly<Record<string, string>> = { AUTO: 'auto', NONE: 'none', ANY: 'required' };

function toolChoice(config: unknown, param: string): unknown {
  if (config === undefined || config === null) return undefined;
  if (!isJsonObject(config)) throw invalid(param, 'toolConfig must be an object');
  const calling = config.functionCallingConfig;
  if (!isJsonObject(calling) || calling.mode === undefined) return undefined;
  const mode = typeof calling.mode === 'string' ? FUNCTION_CALLING_MODES[calling.mode] : undefined;
  if (mode === undefined && calling.mode !== 'VALIDATED')
    throw invalid(`${param}.functionCallingConfig.mode`, 'mode must be AUTO, ANY, NONE or VALIDATED');
  const allowed = Array.isArray(calling.allowedFunctionNames) ? (calling.allowedFunctionNames as unknown[]) : [];
  if (mode === 'required' && allowed.length === 1 && typeof allowed[0] === 'string')
    return { type: 'function', function: { name: allowed[0] } };
  return mode ?? 'auto';
}
