import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { GatewayException } from '../../../core/errors/gateway.exception.js';

/** The wire formats of `/v1/mcp/tool/execute`: a chat tool call, or a Responses `function_call`. */
export const TOOL_CALL_FORMATS = ['chat', 'responses'] as const;
export type ToolCallFormat = (typeof TOOL_CALL_FORMATS)[number];

/** One call as both formats carry it: the id to answer with, the exposed tool name and its parsed arguments. */
export interface ParsedToolCall {
  callId: string;
  name: string;
  arguments: Record<string, unknown>;
}

export interface ChatToolMessage {
  role: 'tool';
  content: string;
  tool_call_id: string;
}

export interface FunctionCallOutput {
  type: 'function_call_output';
  call_id: string;
  output: string;
}

export function parseFormat(value: unknown): ToolCallFormat {
  if (value === undefined || value === '') return 'chat';
  if (typeof value === 'string' && (TOOL_CALL_FORMATS as readonly string[]).includes(value)) {
    return value as ToolCallFormat;
  }
  throw GatewayException.validation('format', `format must be one of: ${TOOL_CALL_FORMATS.join(', ')}`);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function requiredString(value: unknown, param: string): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw GatewayException.validation(param, `${param} is required (a non-empty string)`);
  }
  return value;
}

/** `arguments` as the model wrote it: a string holding a JSON object. */
function parseArguments(value: unknown, param: string): Record<string, unknown> {
  if (typeof value !== 'string') {
    throw GatewayException.validation(param, `${param} is required (a string holding a JSON object)`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw GatewayException.validation(param, `${param} is not valid JSON`);
  }
  if (!isObject(parsed)) throw GatewayException.validation(param, `${param} must hold a JSON object`);
  return parsed;
}

/** A chat tool call `{ id, type: "function", function: { name, arguments } }` or `{ call_id, name, arguments }`. */
export function parseToolCall(format: ToolCallFormat, body: unknown): ParsedToolCall {
  if (!isObject(body)) throw GatewayException.validation('body', 'The body must be a JSON object');
  switch (format) {
    case 'chat': {
      if (body.type !== undefined && body.type !== 'function') {
        throw GatewayException.validation('type', 'type must be "function"');
      }
      const fn = body.function;
      if (!isObject(fn)) throw GatewayException.validation('function', 'function is required (an object)');
      return {
        callId: requiredString(body.id, 'id'),
        name: requiredString(fn.name, 'function.name'),
        arguments: parseArguments(fn.arguments, 'function.arguments'),
      };
    }
    case 'responses':
      return {
        callId: requiredString(body.call_id, 'call_id'),
        name: requiredString(body.name, 'name'),
        arguments: parseArguments(body.arguments, 'arguments'),
      };
  }
}

/**
 * What the model reads back: the result's text parts joined with a newline; without any text, its
 * `structuredContent` as JSON; without either, its content parts as JSON (images, resources), or "" when empty.
 * An `isError` result is rendered the same way (its text says what went wrong).
 */
export function toolOutputText(result: CallToolResult): string {
  const texts: string[] = [];
  for (const part of result.content) if (part.type === 'text') texts.push(part.text);
  if (texts.length > 0) return texts.join('\n');
  if (result.structuredContent !== undefined) return JSON.stringify(result.structuredContent);
  return result.content.length > 0 ? JSON.stringify(result.content) : '';
}

export function renderToolOutput(
  format: ToolCallFormat,
  callId: string,
  result: CallToolResult,
): ChatToolMessage | FunctionCallOutput {
  const text = toolOutputText(result);
  switch (format) {
    case 'chat':
      return { role: 'tool', content: text, tool_call_id: callId };
    case 'responses':
      return { type: 'function_call_output', call_id: callId, output: text };
  }
}
