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
import { geminiGenerationConfig } from './gemini-generation-config.js';
import { geminiModelPath } from './gemini-wire.js';
import type { Json } from '../shared/provider-adapter.js';
import { isJsonObject } from '../shared/wire-json.js';

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
  const system: Json[] = [];
  const contents: Json[] = [];
  // Gemini's functionResponse names the function, OpenAI's tool message only the call id.
  const functionNames = new Map<string, string>();
  walkChatMessages(body.messages, {
    system: (message, param) => system.push(...contentParts(message.content, `${param}.content`, true)),
    user: (message, param) =>
      contents.push({ role: 'user', parts: nonEmpty(contentParts(message.content, `${param}.content`, false)) }),
    assistant: (message, param) =>
      contents.push({ role: 'model', parts: nonEmpty(modelParts(message, param, functionNames)) }),
    toolResult: (message, param) => functionResponse(message, param, functionNames),
    // The user turn answering the model's function calls.
    openToolTurn: (results) => contents.push({ role: 'user', parts: results }),
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
      return mediaPart(imageUrlOf(part, param), `${param}.image_url.url`);
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
  const data = parseBase64DataUrl(url);
  if (data) return { inlineData: { mimeType: data.mediaType, data: data.data } };
  if (!/^https?:\/\//i.test(url)) throw invalid(param, 'a media URL must be an http(s) URL or a base64 data: URL');
  const extension = /\.([a-z0-9]+)(?:[?#]|$)/i.exec(url)?.[1]?.toLowerCase();
  const mimeType = extension ? MIME_BY_EXTENSION[extension] : undefined;
  return { fileData: mimeType ? { mimeType, fileUri: url } : { fileUri: url } };
}

function modelParts(message: Json, param: string, functionNames: Map<string, string>): Json[] {
  const parts: Json[] = assistantTexts(message.content, param).map((text) => ({ text }));
  const calls = Array.isArray(message.tool_calls) ? (message.tool_calls as unknown[]) : [];
  calls.forEach((raw, k) => {
    const call = readToolCall(raw, `${param}.tool_calls[${k}]`, false);
    if (call.id !== undefined) functionNames.set(call.id, call.name);
    parts.push({ functionCall: { name: call.name, args: call.arguments } });
  });
  return parts;
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
  const declarations = readFunctionTools(tools, 'gemini').map(({ fn }) => {
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

const FUNCTION_CALLING_MODES: Readonly<Record<'auto' | 'none' | 'required', string>> = {
  auto: 'AUTO',
  none: 'NONE',
  required: 'ANY',
};

function translateToolChoice(choice: unknown): Json | undefined {
  const read = readToolChoice(choice);
  if (read === undefined) return undefined;
  const config: Json =
    typeof read === 'string'
      ? { mode: FUNCTION_CALLING_MODES[read] }
      : { mode: 'ANY', allowedFunctionNames: [read.name] };
  return { functionCallingConfig: config };
}
