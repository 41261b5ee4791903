import { GatewayException } from '../../../../core/errors/gateway.exception.js';
import type { Json } from './provider-adapter.js';
import { isJsonObject } from './wire-json.js';

/**
 * Reading the pieces of an OpenAI chat body that every translation to a provider's own format (Anthropic, Gemini)
 * reads the same way. A piece that makes no sense is a 400 naming the field, never a provider round trip.
 */

const invalid = (param: string, message: string) => GatewayException.validation(param, message);

/** What a translation does with each message of a chat body. */
export interface ChatMessageHandlers {
  /** A `system` or `developer` message. */
  system(message: Json, param: string): void;
  user(message: Json, param: string): void;
  assistant(message: Json, param: string): void;
  /** One `tool` message, as an entry of the turn that answers the assistant's calls. */
  toolResult(message: Json, param: string): Json;
  /** Opens that turn: `results` is filled in place as consecutive tool messages come. */
  openToolTurn(results: Json[]): void;
}

/**
 * Walks `messages` in order. Consecutive tool results go back as one turn (both Anthropic and Gemini want them so);
 * any other message closes that turn. A message that is not an object or has an unknown role is a 400.
 */
export function walkChatMessages(raw: unknown, on: ChatMessageHandlers): void {
  if (!Array.isArray(raw)) throw invalid('messages', 'messages must be an array');
  let toolTurn: Json[] | undefined;
  raw.forEach((message: unknown, i) => {
    const param = `messages[${i}]`;
    if (!isJsonObject(message)) throw invalid(param, 'each message must be an object');
    if (message.role !== 'tool') toolTurn = undefined;
    switch (message.role) {
      case 'system':
      case 'developer':
        on.system(message, param);
        break;
      case 'user':
        on.user(message, param);
        break;
      case 'assistant':
        on.assistant(message, param);
        break;
      case 'tool': {
        const result = on.toolResult(message, param);
        if (toolTurn) toolTurn.push(result);
        else {
          toolTurn = [result];
          on.openToolTurn(toolTurn);
        }
        break;
      }
      default:
        throw invalid(`${param}.role`, 'role must be one of system, developer, user, assistant, tool');
    }
  });
}

/** A `data:<mime>;base64,<data>` URL split, or undefined when the URL is not a base64 data URL. */
export function parseBase64DataUrl(url: string): { mediaType: string; data: string } | undefined {
  const m = /^data:([^;,]+)((?:;[^;,]*)*);base64,(.*)$/s.exec(url);
  return m ? { mediaType: m[1]!, data: m[3]! } : undefined;
}

/** The URL of an `image_url` content part (`{ image_url: { url } }`, or the bare string some clients send). */
export function imageUrlOf(part: Json, param: string): string {
  const url = isJsonObject(part.image_url) ? part.image_url.url : part.image_url;
  if (typeof url !== 'string') throw invalid(`${param}.image_url.url`, 'image_url.url must be a string');
  return url;
}

/** Tool-call arguments are a JSON object text; '' means no arguments. */
export function parseArguments(args: unknown, param: string): Json {
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

/** The non-empty texts of an assistant message's content (a string, or text and refusal parts). */
export function assistantTexts(content: unknown, param: string): string[] {
  if (typeof content === 'string') return content ? [content] : [];
  if (content === null || content === undefined) return [];
  if (!Array.isArray(content)) throw invalid(`${param}.content`, 'content must be a string, an array of parts or null');
  const texts: string[] = [];
  content.forEach((part: unknown, j) => {
    if (!isJsonObject(part)) throw invalid(`${param}.content[${j}]`, 'each content part must be an object');
    const text = part.type === 'refusal' ? part.refusal : part.text;
    if (typeof text !== 'string') throw invalid(`${param}.content[${j}]`, 'assistant parts must be text or refusal');
    if (text) texts.push(text);
  });
  return texts;
}

/** One assistant `tool_calls` entry, read. */
export interface ToolCallRead {
  id?: string;
  name: string;
  arguments: Json;
}

/** Reads `{ id, function: { name, arguments } }`; `requireId` for a provider that pairs results by the call id. */
export function readToolCall(call: unknown, param: string, requireId: boolean): ToolCallRead {
  if (!isJsonObject(call) || !isJsonObject(call.function)) throw invalid(param, 'a tool call needs a function');
  const fn = call.function;
  if (requireId && typeof call.id !== 'string') throw invalid(`${param}.id`, 'a tool call needs an id');
  if (typeof fn.name !== 'string') throw invalid(`${param}.function.name`, 'a tool call needs a function name');
  const read: ToolCallRead = { name: fn.name, arguments: parseArguments(fn.arguments, `${param}.function.arguments`) };
  if (typeof call.id === 'string') read.id = call.id;
  return read;
}

/** One entry of `tools`: the entry itself (for provider extras beside it) and its function, which has a name. */
export interface FunctionToolRead {
  tool: Json;
  fn: Json & { name: string };
}

/** `tools`, which may only hold function tools for a provider that has no equivalent of OpenAI's built-in ones. */
export function readFunctionTools(tools: unknown, provider: string): FunctionToolRead[] {
  if (!Array.isArray(tools)) throw invalid('tools', 'tools must be an array');
  return tools.map((tool: unknown, i) => {
    if (!isJsonObject(tool) || tool.type !== 'function' || !isJsonObject(tool.function))
      throw invalid(`tools[${i}].type`, `only function tools are supported for ${provider}`);
    const fn = tool.function;
    if (typeof fn.name !== 'string') throw invalid(`tools[${i}].function.name`, 'a tool needs a name');
    return { tool, fn: fn as Json & { name: string } };
  });
}

/** `tool_choice` read: a mode, a named function, or undefined when absent. */
export type ToolChoiceRead = 'auto' | 'none' | 'required' | { name: string } | undefined;

export function readToolChoice(choice: unknown): ToolChoiceRead {
  if (choice === undefined || choice === null) return undefined;
  if (choice === 'auto' || choice === 'none' || choice === 'required') return choice;
  if (isJsonObject(choice) && isJsonObject(choice.function) && typeof choice.function.name === 'string')
    return { name: choice.function.name };
  throw invalid('tool_choice', 'tool_choice must be auto, none, required or a named function');
}
