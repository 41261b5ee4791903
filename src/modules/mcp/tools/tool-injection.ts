import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ExposedTool } from '../mcp-contract.js';

/**
 * MCP tools in inference requests (docs/mcp.md "Tools in inference", "Agent mode"), as data in, data out: which of a
 * caller's tools a request offers, their wire shapes in chat and Responses bodies, the tool calls of an answer and
 * the conversation that continues it. No I/O; the inference plane calls these.
 */

type Json = Record<string, unknown>;

/** The request headers that narrow the tools offered (never widen: they filter what the caller may use). */
export const INCLUDE_CLIENTS_HEADER = 'x-gateway-mcp-include-clients';
export const INCLUDE_TOOLS_HEADER = 'x-gateway-mcp-include-tools';

/** The body kinds MCP tools are offered in. */
export type ToolBodyKind = 'chat' | 'responses';

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A header's comma list (trimmed, empty entries dropped); undefined when the header is absent. */
function listHeader(headers: Record<string, string | string[] | undefined>, name: string): string[] | undefined {
  const raw = headers[name];
  if (raw === undefined) return undefined;
  const text = Array.isArray(raw) ? raw.join(',') : raw;
  return text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/**
 * The caller's tools narrowed by the request's headers: `x-gateway-mcp-include-clients` (client names) and
 * `x-gateway-mcp-include-tools` (exposed names, `<client>-*` for all of a client's, `*` for all). An empty header
 * value offers none. Both headers together: a tool must pass both.
 */
export function narrowTools(
  tools: readonly ExposedTool[],
  headers: Record<string, string | string[] | undefined>,
): readonly ExposedTool[] {
  const clients = listHeader(headers, INCLUDE_CLIENTS_HEADER);
  const names = listHeader(headers, INCLUDE_TOOLS_HEADER);
  if (clients === undefined && names === undefined) return tools;
  return tools.filter(
    (t) => (clients === undefined || clients.includes(t.clientName)) && (names === undefined || namesMatch(names, t)),
  );
}

function namesMatch(patterns: readonly string[], tool: ExposedTool): boolean {
  for (const p of patterns) {
    if (p === '*' || p === tool.name) return true;
    if (p.endsWith('-*') && p.slice(0, -2) === tool.clientName) return true;
  }
  return false;
}

/** The function tool names the caller's own body already defines (they win over an MCP tool of the same name). */
function callerToolNames(kind: ToolBodyKind, tools: unknown[]): Set<string> {
  const names = new Set<string>();
  for (const t of tools) {
    if (!isObject(t)) continue;
    const name = kind === 'chat' ? (isObject(t.function) ? t.function.name : undefined) : t.name;
    if (typeof name === 'string') names.add(name);
  }
  return names;
}

function wireTool(kind: ToolBodyKind, tool: ExposedTool): Json {
  const fn: Json = { name: tool.name };
  if (tool.tool.description !== undefined) fn.description = tool.tool.description;
  fn.parameters = tool.tool.inputSchema;
  return kind === 'chat' ? { type: 'function', function: fn } : { type: 'function', ...fn };
}

/**
 * Adds the tools to `body.tools` as function tools after the caller's own; a tool whose name the caller defined too is
 * skipped (the caller's wins). Returns the tools added.
 */
export function injectTools(kind: ToolBodyKind, body: Json, tools: readonly ExposedTool[]): ExposedTool[] {
  const own = Array.isArray(body.tools) ? (body.tools as unknown[]) : [];
  const taken = own.length > 0 ? callerToolNames(kind, own) : undefined;
  const added = taken ? tools.filter((t) => !taken.has(t.name)) : [...tools];
  if (added.length === 0) return added;
  body.tools = [...own, ...added.map((t) => wireTool(kind, t))];
  return added;
}

/** One tool call of a model's answer, in the caller's wire shape. */
export interface AnswerToolCall {
  /** Chat `tool_calls[].id`, Responses `call_id`. */
  id: string;
  name: string;
  /** The raw JSON text the model produced. */
  arguments: string;
}

/**
 * The tool calls of a unary answer (chat: the first choice's `message.tool_calls`; Responses: the `function_call`
 * output items). An answer with several choices has none for agent mode (it cannot continue them all).
 */
export function answerToolCalls(kind: ToolBodyKind, answer: Json): AnswerToolCall[] {
  const out: AnswerToolCall[] = [];
  if (kind === 'chat') {
    const choices = answer.choices;
    if (!Array.isArray(choices) || choices.length !== 1 || !isObject(choices[0])) return out;
    const message = choices[0].message;
    const calls = isObject(message) ? message.tool_calls : undefined;
    if (!Array.isArray(calls)) return out;
    for (const c of calls) {
      if (!isObject(c) || !isObject(c.function) || typeof c.id !== 'string') continue;
      const name = c.function.name;
      const args = c.function.arguments;
      if (typeof name === 'string') out.push({ id: c.id, name, arguments: typeof args === 'string' ? args : '{}' });
    }
    return out;
  }
  if (!Array.isArray(answer.output)) return out;
  for (const item of answer.output) {
    if (!isObject(item) || item.type !== 'function_call') continue;
    if (typeof item.call_id !== 'string' || typeof item.name !== 'string') continue;
    out.push({
      id: item.call_id,
      name: item.name,
      arguments: typeof item.arguments === 'string' ? item.arguments : '{}',
    });
  }
  return out;
}

/** A call's arguments as an object (what MCP takes); invalid JSON or a non-object is refused with its reason. */
export function callArguments(call: AnswerToolCall): Record<string, unknown> | string {
  if (call.arguments.trim() === '') return {};
  try {
    const parsed = JSON.parse(call.arguments) as unknown;
    return isObject(parsed) ? parsed : `Arguments of ${call.name} must be a JSON object`;
  } catch {
    return `Arguments of ${call.name} are not valid JSON`;
  }
}

/** A tool result as the text a model reads: its text parts, else the whole content as JSON. */
export function toolResultText(result: CallToolResult): string {
  const texts: string[] = [];
  let other = false;
  for (const part of result.content) {
    if (part.type === 'text') texts.push(part.text);
    else other = true;
  }
  if (!other && texts.length > 0) return texts.join('\n');
  if (result.structuredContent !== undefined && !other && texts.length === 0) {
    return JSON.stringify(result.structuredContent);
  }
  return JSON.stringify(result.content);
}

/**
 * The next round's body: the conversation so far, the model's answer with its tool calls, and one tool result per
 * call (chat: an assistant message and `role: tool` messages; Responses: the `function_call` items and
 * `function_call_output` items appended to `input`). The caller's body is not changed.
 */
export function continueConversation(
  kind: ToolBodyKind,
  body: Json,
  answer: Json,
  calls: readonly AnswerToolCall[],
  results: readonly string[],
): Json {
  if (kind === 'chat') {
    const choice = (answer.choices as Json[])[0]!;
    const message = choice.message as Json;
    const assistant: Json = { role: 'assistant', content: message.content ?? null, tool_calls: message.tool_calls };
    const tools = calls.map((c, i) => ({ role: 'tool', tool_call_id: c.id, content: results[i] }));
    return { ...body, messages: [...(body.messages as unknown[]), assistant, ...tools] };
  }
  const input: unknown[] =
    typeof body.input === 'string' ? [{ role: 'user', content: body.input }] : [...(body.input as unknown[])];
  for (const c of calls) input.push({ type: 'function_call', call_id: c.id, name: c.name, arguments: c.arguments });
  calls.forEach((c, i) => input.push({ type: 'function_call_output', call_id: c.id, output: results[i] }));
  return { ...body, input };
}
