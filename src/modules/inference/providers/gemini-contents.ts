import { GatewayException } from '../../../core/errors/gateway.exception.js';
import { geminiGenerationConfig } from './gemini-generation-config.js';
import { geminiModelPath, isJsonObject } from './gemini-wire.js';
import type { Json } from './provider-adapter.js';

/**
 * OpenAI chat bodies → Gemini `generateContent` and `countTokens` bodies. Pure translation: a caller mistake Gemini
 * could not make sense of is a 400 naming the field.
 */

/** Guessed MIME types for `fileData` parts given by URL (Gemini wants one; the URL is not fetched here). */
const MIME_BY_EXTENSION: Readonly<Record<string, string>> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  heic: 'image/heic',
  pdf: 'application/pdf',
  mp3: 'audio/mp3',
  wav: 'audio/wav',
  mp4: 'video/mp4',
};

const invalid = (param: string, message: string) => GatewayException.validation(param, message);

/** The prompt half of a request, shared by generateContent and countTokens. */
export interface GeminiPrompt {
  contents: Json[];
  systemInstruction?: Json;
  tools?: Json[];
  toolConfig?: Json;
}

export function toGeminiGenerateContent(body: Json): Json {
  const out: Json = { ...toGeminiPrompt(body) };
  const config = geminiGenerationConfig(body);
  if (Object.keys(config).length > 0) out.generationConfig = config;
  return out;
}

/**
 * countTokens takes bare `contents`; a system instruction or tools count too, and only fit in the
 * `generateContentRequest` form, which is then used instead.
 */
export function toGeminiCountTokens(body: Json, model: string): Json {
  const prompt = toGeminiPrompt(body);
  if (!prompt.systemInstruction && !prompt.tools) return { contents: prompt.contents };
  const request: Json = { model: geminiModelPath(model), contents: prompt.contents };
  if (prompt.systemInstruction) request.systemInstruction = prompt.systemInstruction;
  if (prompt.tools) request.tools = prompt.tools;
  return { generateContentRequest: request };
}

export function toGeminiPrompt(body: Json): GeminiPrompt {
  const raw = body.messages;
  if (!Array.isArray(raw)) throw invalid('messages', 'messages must be an array');
  const system: Json[] = [];
  const contents: Json[] = [];
  // Gemini's functionResponse names the function, OpenAI's tool message only the call id.
  const functionNames = new Map<string, string>();
  // Consecutive tool results go back as one user turn answering the model's function calls.
  let toolTurn: Json[] | undefined;
  raw.forEach((message: unknown, i) => {
    const param = `messages[${i}]`;
    if (!isJsonObject(message)) throw invalid(param, 'each message must be an object');
    if (message.role !== 'tool') toolTurn = undefined;
    switch (message.role) {
      case 'system':
      case 'developer':
        system.push(...contentParts(message.content, `${param}.content`, true));
        break;
      case 'user':
        contents.push({ role: 'user', parts: nonEmpty(contentParts(message.content, `${param}.content`, false)) });
        break;
      case 'assistant':
        contents.push({ role: 'model', parts: nonEmpty(modelParts(message, param, functionNames)) });
        break;
      case 'tool': {
        const part = functionResponse(message, param, functionNames);
        if (toolTurn) toolTurn.push(part);
        else {
          toolTurn = [part];
          contents.push({ role: 'user', parts: toolTurn });
        }
        break;
      }
      default:
        throw invalid(`${param}.role`, 'role must be one of system, developer, user, assistant, tool');
    }
  });
  const prompt: GeminiPrompt = { contents };
  if (system.length > 0) prompt.systemInstruction = { parts: system };
  const tools = body.tools === undefined || body.tools === null ? [] : translateTools(body.tools);
  if (tools.length > 0) prompt.tools = tools;
  const toolConfig = translateToolChoice(body.tool_choice);
  if (toolConfig) prompt.toolConfig = toolConfig;
  return prompt;
}

/** Gemini refuses a content without parts. */
function nonEmpty(parts: Json[]): Json[] {
  return parts.length > 0 ? parts : [{ text: '' }];
}

function contentParts(content: unknown, param: string, textOnly: boolean): Json[] {
  if (typeof content === 'string') return [{ text: content }];
  if (content === null || content === undefined) return [];
  if (!Array.isArray(content)) throw invalid(param, 'content must be a string or an array of parts');
  return content.map((part: unknown, j) => {
    const p = contentPart(part, `${param}[${j}]`);
    if (textOnly && p.text === undefined) throw invalid(`${param}[${j}]`, 'system content parts must be text parts');
    return p;
  });
}

/** One OpenAI content part → one Gemini part (text, inlineData for data: URLs, fileData for http URLs). */
function contentPart(part: unknown, param: string): Json {
  if (!isJsonObject(part)) throw invalid(param, 'each content part must be an object');
  switch (part.type) {
    case 'text':
      if (typeof part.text !== 'string') throw invalid(`${param}.text`, 'text must be a string');
      return { text: part.text };
    case 'image_url': {
      const url = isJsonObject(part.image_url) ? part.image_url.url : part.image_url;
      if (typeof url !== 'string') throw invalid(`${param}.image_url.url`, 'image_url.url must be a string');
      return mediaPart(url, `${param}.image_url.url`);
    }
    case 'input_audio': {
      const audio = isJsonObject(part.input_audio) ? part.input_audio : {};
      if (typeof audio.data !== 'string' || typeof audio.format !== 'string')
        throw invalid(`${param}.input_audio`, 'input_audio needs data and format');
      return { inlineData: { mimeType: `audio/${audio.format}`, data: audio.data } };
    }
    case 'file': {
      const data = isJsonObject(part.file) ? part.file.file_data : undefined;
      if (typeof data !== 'string') throw invalid(`${param}.file.file_data`, 'file parts need file_data');
      return mediaPart(data, `${param}.file.file_data`);
    }
    default:
      throw invalid(`${param}.type`, 'content part type must be text, image_url, input_audio or file for gemini');
  }
}

function mediaPart(url: string, param: string): Json {
  const data = /^data:([^;,]+)((?:;[^;,]*)*);base64,(.*)$/s.exec(url);
  if (data) return { inlineData: { mimeType: data[1], data: data[3] } };
  if (!/^https?:\/\//i.test(url)) throw invalid(param, 'a media URL must be an http(s) URL or a base64 data: URL');
  const extension = /\.([a-z0-9]+)(?:[?#]|$)/i.exec(url)?.[1]?.toLowerCase();
  const mimeType = extension ? MIME_BY_EXTENSION[extension] : undefined;
  return { fileData: mimeType ? { mimeType, fileUri: url } : { fileUri: url } };
}

function modelParts(message: Json, param: string, functionNames: Map<string, string>): Json[] {
  const parts: Json[] = [];
  const content = message.content;
  if (typeof content === 'string') {
    if (content) parts.push({ text: content });
  } else if (Array.isArray(content)) {
    content.forEach((part: unknown, j) => {
      const text = isJsonObject(part) ? (part.type === 'refusal' ? part.refusal : part.text) : undefined;
      if (typeof text !== 'string') throw invalid(`${param}.content[${j}]`, 'assistant parts must be text or refusal');
      if (text) parts.push({ text });
    });
  } else if (content !== null && content !== undefined) {
    throw invalid(`${param}.content`, 'content must be a string, an array of parts or null');
  }
  const calls = Array.isArray(message.tool_calls) ? (message.tool_calls as unknown[]) : [];
  calls.forEach((call, k) => {
    const at = `${param}.tool_calls[${k}]`;
    if (!isJsonObject(call) || !isJsonObject(call.function)) throw invalid(at, 'a tool call needs a function');
    const name = call.function.name;
    if (typeof name !== 'string') throw invalid(`${at}.function.name`, 'a tool call needs a function name');
    if (typeof call.id === 'string') functionNames.set(call.id, name);
    parts.push({ functionCall: { name, args: parseArguments(call.function.arguments, `${at}.function.arguments`) } });
  });
  return parts;
}

/** Tool-call arguments are a JSON object text; '' means no arguments. */
function parseArguments(args: unknown, param: string): Json {
  if (args === undefined || args === null || args === '') return {};
  let parsed: unknown = args;
  if (typeof args === 'string') {
    try {
      parsed = JSON.parse(args);
    } catch {
      throw invalid(param, 'tool call arguments must be a JSON object');
    }
  }
  if (!isJsonObject(parsed)) throw invalid(param, 'tool call arguments must be a JSON object');
  return parsed;
}

/** The result as Gemini wants it: a JSON object result as is, anything else wrapped as `{ content }`. */
function functionResponse(message: Json, param: string, functionNames: Map<string, string>): Json {
  const id = message.tool_call_id;
  const name = typeof id === 'string' ? functionNames.get(id) : undefined;
  if (name === undefined)
    throw invalid(`${param}.tool_call_id`, 'tool_call_id must match a tool call of an earlier assistant message');
  const content = message.content;
  let text: string;
  if (typeof content === 'string') text = content;
  else if (Array.isArray(content))
    text = content.map((p: unknown) => (isJsonObject(p) && typeof p.text === 'string' ? p.text : '')).join('');
  else text = '';
  let response: Json = { content: text };
  try {
    const parsed: unknown = JSON.parse(text);
    if (isJsonObject(parsed)) response = parsed;
  } catch {
    // Plain text result: wrapped.
  }
  return { functionResponse: { name, response } };
}

function translateTools(tools: unknown): Json[] {
  if (!Array.isArray(tools)) throw invalid('tools', 'tools must be an array');
  const declarations = tools.map((tool: unknown, i) => {
    if (!isJsonObject(tool) || tool.type !== 'function' || !isJsonObject(tool.function))
      throw invalid(`tools[${i}].type`, 'only function tools are supported for gemini');
    const fn = tool.function;
    if (typeof fn.name !== 'string') throw invalid(`tools[${i}].function.name`, 'a tool needs a name');
    const declaration: Json = { name: fn.name };
    if (typeof fn.description === 'string') declaration.description = fn.description;
    // Gemini refuses an OBJECT schema with no properties: a function without parameters declares none.
    const params = fn.parameters;
    const emptyObject =
      isJsonObject(params) && (!isJsonObject(params.properties) || !Object.keys(params.properties).length);
    if (isJsonObject(params) && !emptyObject) declaration.parameters = params;
    return declaration;
  });
  return declarations.length > 0 ? [{ functionDeclarations: declarations }] : [];
}

function translateToolChoice(choice: unknown): Json | undefined {
  let config: Json;
  if (choice === undefined || choice === null) return undefined;
  if (choice === 'auto') config = { mode: 'AUTO' };
  else if (choice === 'none') config = { mode: 'NONE' };
  else if (choice === 'required') config = { mode: 'ANY' };
  else if (isJsonObject(choice) && isJsonObject(choice.function) && typeof choice.function.name === 'string')
    config = { mode: 'ANY', allowedFunctionNames: [choice.function.name] };
  else throw invalid('tool_choice', 'tool_choice must be auto, none, required or a named function');
  return { functionCallingConfig: config };
}
