import { randomUUID } from 'node:crypto';
import { toResponsesWireUsage, usageFromOpenAi } from '../providers/openai/openai-usage.js';
import type { Json, Usage } from '../providers/shared/provider-adapter.js';
import { asArray, asObject, asString } from '../providers/shared/wire-json.js';
import type {
  ItemStatus,
  ResponsesFunctionCallItem,
  ResponsesObject,
  ResponsesOutputItem,
  ResponsesOutputText,
  ResponsesRefusal,
  ResponsesUrlCitation,
} from './responses-wire.types.js';

/** `resp_` id derived from the chat completion id (stable for one answer), or a fresh one. */
export function responseIdFor(chatId: unknown): string {
  const core = typeof chatId === 'string' && chatId !== '' ? chatId.replace(/^chatcmpl-/, '') : undefined;
  return `resp_${core ?? randomUUID().replace(/-/g, '')}`;
}

/** Item ids derived from the response id: `msg_…_0`, `fc_…_1`, `rs_…_0`. */
export function itemIdFor(prefix: 'msg' | 'fc' | 'rs', responseId: string, outputIndex: number): string {
  return `${prefix}_${responseId.replace(/^resp_/, '')}_${outputIndex}`;
}

/** Response status from the chat finish reason: truncated or filtered answers are `incomplete`. */
export function outcomeOf(finishReason: unknown): Pick<ResponsesObject, 'status' | 'incomplete_details'> {
  if (finishReason === 'length') return { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } };
  if (finishReason === 'content_filter') {
    return { status: 'incomplete', incomplete_details: { reason: 'content_filter' } };
  }
  return { status: 'completed', incomplete_details: null };
}

function numberOrNull(v: unknown, fallback: number | null): number | null {
  return typeof v === 'number' ? v : fallback;
}

/** The response object around `output`, echoing the request's settings as OpenAI does. */
export function responseEnvelope(
  request: Json,
  fields: Pick<ResponsesObject, 'id' | 'created_at' | 'model' | 'status' | 'incomplete_details' | 'output'> &
    Partial<Pick<ResponsesObject, 'usage' | 'error'>>,
): ResponsesObject {
  const reasoning = asObject(request.reasoning);
  const metadata = asObject(request.metadata);
  const response: ResponsesObject = {
    id: fields.id,
    object: 'response',
    created_at: fields.created_at,
    status: fields.status,
    background: false,
    error: fields.error ?? null,
    incomplete_details: fields.incomplete_details,
    instructions: asString(request.instructions) ?? null,
    max_output_tokens: numberOrNull(request.max_output_tokens, null),
    model: fields.model,
    output: fields.output,
    parallel_tool_calls: typeof request.parallel_tool_calls === 'boolean' ? request.parallel_tool_calls : true,
    previous_response_id: null,
    access_programs: null,
    reasoning: { effort: asString(reasoning?.effort) ?? null, summary: asString(reasoning?.summary) ?? null },
    store: false,
    temperature: numberOrNull(request.temperature, 1),
    text: asObject(request.text) ?? { format: { type: 'text' } },
    tool_choice: request.tool_choice ?? 'auto',
    tools: asArray(request.tools) ?? [],
    top_p: numberOrNull(request.top_p, 1),
    truncation: 'disabled',
    metadata: (metadata as Record<string, string> | undefined) ?? {},
  };
  if (typeof request.user === 'string') response.user = request.user;
  if (fields.usage) response.usage = fields.usage;
  return response;
}

/** Chat `message.annotations` (`{ type: "url_citation", url_citation: {…} }`) in the Responses shape. */
export function citationsOf(annotations: unknown): ResponsesUrlCitation[] {
  const out: ResponsesUrlCitation[] = [];
  for (const raw of asArray(annotations) ?? []) {
    const a = asObject(raw);
    const c = asObject(a?.url_citation);
    if (a?.type !== 'url_citation' || !c) continue;
    out.push({
      type: 'url_citation',
      start_index: typeof c.start_index === 'number' ? c.start_index : 0,
      end_index: typeof c.end_index === 'number' ? c.end_index : 0,
      title: asString(c.title) ?? '',
      url: asString(c.url) ?? '',
    });
  }
  return out;
}

/** Reasoning text as chat providers put it: `reasoning_content` (DeepSeek, vLLM) or `reasoning` (Groq, OpenRouter). */
export function reasoningTextOf(messageOrDelta: Json): string | undefined {
  const text = asString(messageOrDelta.reasoning_content) ?? asString(messageOrDelta.reasoning);
  return text === '' ? undefined : text;
}

function outputOf(message: Json, responseId: string, status: ItemStatus): ResponsesOutputItem[] {
  const output: ResponsesOutputItem[] = [];
  const reasoning = reasoningTextOf(message);
  if (reasoning !== undefined) {
    output.push({
      id: itemIdFor('rs', responseId, output.length),
      type: 'reasoning',
      summary: [],
      content: [{ type: 'reasoning_text', text: reasoning }],
      status,
    });
  }
  const content: Array<ResponsesOutputText | ResponsesRefusal> = [];
  const text = asString(message.content);
  if (text) {
    content.push({ type: 'output_text', text, annotations: citationsOf(message.annotations), logprobs: [] });
  }
  const refusal = asString(message.refusal);
  if (refusal) content.push({ type: 'refusal', refusal });
  if (content.length > 0) {
    output.push({
      id: itemIdFor('msg', responseId, output.length),
      type: 'message',
      role: 'assistant',
      status,
      content,
    });
  }
  for (const raw of asArray(message.tool_calls) ?? []) {
    const call = asObject(raw);
    const fn = asObject(call?.function);
    if (!call || !fn) continue;
    const item: ResponsesFunctionCallItem = {
      id: itemIdFor('fc', responseId, output.length),
      type: 'function_call',
      call_id: asString(call.id) ?? itemIdFor('fc', responseId, output.length),
      name: asString(fn.name) ?? '',
      arguments: asString(fn.arguments) ?? '',
      status,
    };
    output.push(item);
  }
  return output;
}

/**
 * A chat completion → the Responses API response the caller asked for. `usage`, when given (e.g. with the gateway's
 * cost), replaces the usage read from the chat body.
 */
export function chatToResponsesResponse(chat: Json, requestBody: Json, usage?: Usage): ResponsesObject {
  const id = responseIdFor(chat.id);
  const choice = asObject(asArray(chat.choices)?.[0]);
  const outcome = outcomeOf(choice?.finish_reason);
  const itemStatus: ItemStatus = outcome.status === 'incomplete' ? 'incomplete' : 'completed';
  const finalUsage = usage ?? usageFromOpenAi(chat.usage);
  return responseEnvelope(requestBody, {
    id,
    created_at: typeof chat.created === 'number' ? chat.created : Math.floor(Date.now() / 1000),
    model: asString(chat.model) ?? asString(requestBody.model) ?? '',
    ...outcome,
    output: outputOf(asObject(choice?.message) ?? {}, id, itemStatus),
    usage: finalUsage ? toResponsesWireUsage(finalUsage) : undefined,
  });
}
