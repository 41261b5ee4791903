import { GatewayException } from '../../../core/errors/gateway.exception.js';
import type { Json } from '../providers/shared/provider-adapter.js';
import { asObject, asString } from '../providers/shared/wire-json.js';
import { chatPromptAsResponsesInput } from './chat-to-responses-input.js';

/** Chat members a Responses request takes under the same name. */
const SAME_NAME = [
  'model',
  'temperature',
  'top_p',
  'user',
  'parallel_tool_calls',
  'metadata',
  'service_tier',
  'prompt_cache_key',
  'safety_identifier',
] as const;

/**
 * A chat completions request → a Responses API request, for a model served through `/responses` only (OpenCode's
 * `gpt-*`). The prompt goes as `instructions` and `input` items (`chatPromptAsResponsesInput`); `max_tokens` /
 * `max_completion_tokens` → `max_output_tokens`, `reasoning_effort` → `reasoning.effort`, `response_format` →
 * `text.format`, a named `tool_choice` loses its `function` wrapper. Nothing is stored upstream (`store: false`): a
 * chat caller keeps its own history. Dropped, having no Responses counterpart: `stop`, `seed`, `logprobs`,
 * `stream_options` (a Responses stream always ends with its usage). `n` above 1 is a 400 naming `n`.
 */
export function chatToResponsesRequest(body: Json): Json {
  if (typeof body.n === 'number' && body.n > 1) {
    throw GatewayException.validation(
      'n',
      'This model answers through the Responses API, which has one choice: n must be 1',
    );
  }
  const out: Json = {};
  for (const field of SAME_NAME) if (body[field] !== undefined && body[field] !== null) out[field] = body[field];
  Object.assign(out, chatPromptAsResponsesInput({ messages: body.messages, tools: body.tools }));
  const max = typeof body.max_completion_tokens === 'number' ? body.max_completion_tokens : body.max_tokens;
  if (typeof max === 'number') out.max_output_tokens = max;
  if (typeof body.reasoning_effort === 'string') out.reasoning = { effort: body.reasoning_effort };
  const format = textFormat(body.response_format);
  if (format) out.text = { format };
  const choice = toolChoice(body.tool_choice);
  if (choice !== undefined) out.tool_choice = choice;
  out.store = false;
  if (body.stream === true) out.stream = true;
  return out;
}

/** `response_format` → `text.format`: a JSON schema's name, schema and strictness move up one level. */
function textFormat(raw: unknown): Json | undefined {
  const format = asObject(raw);
  if (!format) return undefined;
  if (format.type !== 'json_schema') return { type: format.type };
  const schema = asObject(format.json_schema) ?? {};
  const out: Json = { type: 'json_schema', name: asString(schema.name) ?? 'response', schema: schema.schema ?? {} };
  if (typeof schema.strict === 'boolean') out.strict = schema.strict;
  if (typeof schema.description === 'string') out.description = schema.description;
  return out;
}

/** `{type: "function", function: {name}}` → `{type: "function", name}`; the modes are the same words. */
function toolChoice(raw: unknown): unknown {
  if (raw === undefined || raw === null) return undefined;
  const named = asString(asObject(asObject(raw)?.function)?.name);
  return named ? { type: 'function', name: named } : raw;
}
