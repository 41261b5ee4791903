import { type Answer, buildAnswer, newId, type UsageNumbers } from '../answer.js';
import {
  eolOf,
  eventFrame,
  fragments,
  jsonReply,
  nowSeconds,
  type Operation,
  type Reply,
  type SimRequest,
  SSE_HEADERS,
  type StreamReply,
} from '../family.js';
import { badBody, type Flavor, openaiError, responsesPrompt, successHeaders } from './openai-wire.js';

type Obj = Record<string, unknown>;

function responsesUsage(u: UsageNumbers): Obj {
  const input = u.input + u.cacheRead + u.cacheWrite;
  const output = u.output + u.reasoning;
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: u.cacheRead },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: u.reasoning },
    total_tokens: input + output,
  };
}

/** Output items in order: reasoning (when reasoning tokens), web_search_call per search, then message or calls. */
function outputItems(a: Answer, query: string): Obj[] {
  const items: Obj[] = [];
  if (a.usage.reasoning > 0) items.push({ id: newId('rs_'), type: 'reasoning', summary: [] });
  for (let i = 0; i < a.usage.webSearch; i++) {
    items.push({ id: newId('ws_'), type: 'web_search_call', status: 'completed', action: { type: 'search', query } });
  }
  if (a.toolCalls.length === 0) {
    items.push({
      id: newId('msg_'),
      type: 'message',
      status: a.finish === 'length' ? 'incomplete' : 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', text: a.text, annotations: [], logprobs: [] }],
    });
  }
  for (const c of a.toolCalls) {
    items.push({
      id: newId('fc_'),
      type: 'function_call',
      status: 'completed',
      arguments: c.arguments,
      call_id: c.id,
      name: c.name,
    });
  }
  return items;
}

function responseObject(body: Obj, a: Answer, id: string, createdAt: number, output: Obj[], done: boolean): Obj {
  const incomplete = a.finish === 'length';
  return {
    id,
    object: 'response',
    created_at: createdAt,
    status: !done ? 'in_progress' : incomplete ? 'incomplete' : 'completed',
    background: false,
    error: null,
    incomplete_details: done && incomplete ? { reason: 'max_output_tokens' } : null,
    instructions: body.instructions ?? null,
    max_output_tokens: body.max_output_tokens ?? null,
    model: a.model,
    output,
    parallel_tool_calls: true,
    previous_response_id: body.previous_response_id ?? null,
    reasoning: { effort: null, summary: null },
    store: body.store ?? true,
    temperature: 1,
    text: { format: { type: 'text' } },
    tool_choice: body.tool_choice ?? 'auto',
    tools: body.tools ?? [],
    top_p: 1,
    truncation: 'disabled',
    usage: done ? responsesUsage(a.usage) : null,
    user: null,
    metadata: {},
  };
}

/** Typed events (`event:` + `data:` with `type` and `sequence_number`), ending with `response.completed`; no [DONE]. */
function responsesStream(flavor: Flavor, body: Obj, a: Answer, query: string, eol: string): StreamReply {
  const id = newId('resp_');
  const createdAt = nowSeconds();
  const items = outputItems(a, query);
  const frames: string[] = [];
  let seq = 0;
  const emit = (type: string, data: Obj) => {
    frames.push(eventFrame(type, JSON.stringify({ type, sequence_number: seq++, ...data }), eol));
  };
  const start = responseObject(body, a, id, createdAt, [], false);
  emit('response.created', { response: start });
  emit('response.in_progress', { response: start });
  items.forEach((item, output_index) => {
    const item_id = item.id as string;
    switch (item.type) {
      case 'message': {
        const part = (item.content as Obj[])[0]!;
        emit('response.output_item.added', {
          output_index,
          item: { ...item, status: 'in_progress', content: [] },
        });
        emit('response.content_part.added', {
          item_id,
          output_index,
          content_index: 0,
          part: { type: 'output_text', text: '', annotations: [], logprobs: [] },
        });
        for (const delta of a.pieces) {
          emit('response.output_text.delta', { item_id, output_index, content_index: 0, delta, logprobs: [] });
        }
        emit('response.output_text.done', { item_id, output_index, content_index: 0, text: a.text, logprobs: [] });
        emit('response.content_part.done', { item_id, output_index, content_index: 0, part });
        break;
      }
      case 'function_call':
        emit('response.output_item.added', { output_index, item: { ...item, status: 'in_progress', arguments: '' } });
        for (const delta of fragments(item.arguments as string)) {
          emit('response.function_call_arguments.delta', { item_id, output_index, delta });
        }
        emit('response.function_call_arguments.done', {
          item_id,
          output_index,
          name: item.name,
          arguments: item.arguments,
        });
        break;
      case 'web_search_call':
        emit('response.output_item.added', { output_index, item: { ...item, status: 'in_progress' } });
        emit('response.web_search_call.in_progress', { item_id, output_index });
        emit('response.web_search_call.searching', { item_id, output_index });
        emit('response.web_search_call.completed', { item_id, output_index });
        break;
      default:
        emit('response.output_item.added', { output_index, item });
    }
    emit('response.output_item.done', { output_index, item });
  });
  const final = responseObject(body, a, id, createdAt, items, true);
  emit(final.status === 'incomplete' ? 'response.incomplete' : 'response.completed', { response: final });
  const errorFrame = eventFrame(
    'error',
    JSON.stringify({
      type: 'error',
      sequence_number: seq,
      code: 'server_error',
      message: 'The server had an error while processing your request. Sorry about that!',
      param: null,
    }),
    eol,
  );
  return { headers: { ...SSE_HEADERS, ...successHeaders(flavor) }, frames, errorFrame };
}

/** Chat completions members the Responses API refuses as unknown (a chat body sent to the wrong endpoint). */
const CHAT_ONLY = [
  'messages',
  'max_tokens',
  'max_completion_tokens',
  'response_format',
  'reasoning_effort',
  'stop',
  'n',
];

export function responsesOperation(flavor: Flavor, req: SimRequest): Operation | Reply {
  const bad = badBody(flavor, req, ['model']);
  if (bad) return bad;
  const body = req.body as Obj;
  const unknown = CHAT_ONLY.find((field) => body[field] !== undefined);
  if (unknown) {
    const message = `Unknown parameter: '${unknown}'.`;
    return openaiError(flavor, { status: 400, message, code: 'unknown_parameter' }, unknown);
  }
  req.model = String(body.model);
  req.stream = body.stream === true;
  const prompt = responsesPrompt(body);
  return (knobs) => {
    const a = buildAnswer(prompt, knobs);
    if (req.stream) return responsesStream(flavor, body, a, prompt.lastUserText, eolOf(knobs.framing, 'lf'));
    const output = outputItems(a, prompt.lastUserText);
    return jsonReply(200, responseObject(body, a, newId('resp_'), nowSeconds(), output, true), successHeaders(flavor));
  };
}

/** `POST /responses/input_tokens`: the input token count of a Responses request. */
export function inputTokensOperation(flavor: Flavor, req: SimRequest): Operation | Reply {
  const bad = badBody(flavor, req, ['model']);
  if (bad) return bad;
  const body = req.body as Obj;
  req.model = String(body.model);
  const prompt = responsesPrompt(body);
  return (knobs) =>
    jsonReply(
      200,
      { object: 'response.input_tokens', input_tokens: knobs.usage?.input_tokens ?? prompt.inputWords },
      successHeaders(flavor),
    );
}
