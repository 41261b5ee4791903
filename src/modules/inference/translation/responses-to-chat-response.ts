import { randomUUID } from 'node:crypto';
import { toOpenAiWireUsage } from '../providers/openai/openai-usage.js';
import type { Json, Usage } from '../providers/shared/provider-adapter.js';
import { asArray, asObject, asString } from '../providers/shared/wire-json.js';

/** `chatcmpl-` id derived from the response id (stable for one answer). */
export function chatIdFor(responseId: unknown): string {
  const core = typeof responseId === 'string' ? responseId.replace(/^resp_/, '') : '';
  return `chatcmpl-${core || randomUUID().replace(/-/g, '')}`;
}

/**
 * The chat finish reason of a Responses answer: a function call is `tool_calls`, an answer cut at
 * `max_output_tokens` is `length`, a filtered one `content_filter`.
 */
export function chatFinishReasonOf(response: Json, calledTools: boolean): string {
  const reason = asString(asObject(response.incomplete_details)?.reason);
  if (reason === 'max_output_tokens') return 'length';
  if (reason === 'content_filter') return 'content_filter';
  return calledTools ? 'tool_calls' : 'stop';
}

/** Chat `annotations` from a Responses `output_text`'s URL citations. */
function annotationsOf(part: Json): Json[] {
  return (asArray(part.annotations) ?? []).flatMap((raw) => {
    const a = asObject(raw);
    if (a?.type !== 'url_citation') return [];
    const { type: _type, ...citation } = a;
    return [{ type: 'url_citation', url_citation: citation }];
  });
}

/**
 * A Responses API answer → the chat completion a chat caller asked for (the inverse of `chatToResponsesResponse`):
 * message items' `output_text` become `content` (their citations `annotations`, refusals `refusal`), reasoning items'
 * text `reasoning_content`, `function_call` items `tool_calls` with their `call_id`. `usage`, when given, is written
 * in the chat shape.
 */
export function responsesToChatResponse(response: Json, usage?: Usage): Json {
  // OpenAI's own chat answers carry `refusal: null` when there is none.
  const message: Json = { role: 'assistant', content: null, refusal: null };
  const texts: string[] = [];
  const reasoning: string[] = [];
  const refusals: string[] = [];
  const annotations: Json[] = [];
  const toolCalls: Json[] = [];
  for (const raw of asArray(response.output) ?? []) {
    const item = asObject(raw);
    if (item?.type === 'message') {
      for (const rawPart of asArray(item.content) ?? []) {
        const part = asObject(rawPart) ?? {};
        if (part.type === 'output_text' && typeof part.text === 'string') {
          texts.push(part.text);
          annotations.push(...annotationsOf(part));
        } else if (part.type === 'refusal' && typeof part.refusal === 'string') refusals.push(part.refusal);
      }
    } else if (item?.type === 'reasoning') {
      // The reasoning text when the provider gives it, else its summary.
      const content = asArray(item.content) ?? [];
      for (const p of content.length > 0 ? content : (asArray(item.summary) ?? [])) {
        const text = asString(asObject(p)?.text);
        if (text) reasoning.push(text);
      }
    } else if (item?.type === 'function_call') {
      toolCalls.push({
        id: asString(item.call_id) ?? asString(item.id),
        type: 'function',
        function: { name: asString(item.name) ?? '', arguments: asString(item.arguments) ?? '' },
      });
    }
  }
  if (texts.length > 0) message.content = texts.join('');
  if (refusals.length > 0) message.refusal = refusals.join('');
  if (reasoning.length > 0) message.reasoning_content = reasoning.join('\n');
  if (annotations.length > 0) message.annotations = annotations;
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  const chat: Json = {
    id: chatIdFor(response.id),
    object: 'chat.completion',
    created: typeof response.created_at === 'number' ? response.created_at : Math.floor(Date.now() / 1000),
    model: asString(response.model) ?? '',
    choices: [{ index: 0, message, finish_reason: chatFinishReasonOf(response, toolCalls.length > 0), logprobs: null }],
  };
  if (usage) chat.usage = toOpenAiWireUsage(usage);
  return chat;
}
