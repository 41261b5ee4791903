import { type Answer, buildAnswer, countWords, embed, newId, type Prompt, textOf } from '../answer.js';
import {
  bearer,
  eolOf,
  type ErrorSpec,
  eventFrame,
  type Family,
  fragments,
  hintHeaders,
  isObj,
  jsonReply,
  type Operation,
  type Reply,
  type SimRequest,
  SSE_HEADERS,
  type StreamReply,
} from '../family.js';
import { DEFAULT_DIMENSIONS } from './openai.js';

type Obj = Record<string, unknown>;

/** Cohere's error bodies are `{ "message": … }`; 498 is its invalid-token status. */
const MESSAGES: Record<number, string> = {
  400: 'invalid request',
  401: 'invalid api token',
  402: 'Please add a payment method to continue.',
  403: 'Forbidden',
  404: 'model not found',
  422: 'unprocessable entity',
  429: 'You are using a Trial key, which is limited to 10 API calls / minute.',
  498: 'invalid api token',
  500: 'internal server error',
  503: 'service unavailable',
  504: 'gateway timeout',
};

const successHeaders = () => ({ 'x-trace-id': newId(''), 'x-api-warning': '', num_tokens: '0' });

/** A native error; a 429 carries no retry hint unless a scenario asks for one (Cohere sends none). */
export function cohereError(spec: ErrorSpec): Reply {
  const status = spec.overloaded ? 503 : spec.status;
  const message = spec.message ?? MESSAGES[status] ?? 'error';
  return jsonReply(status, { id: newId(''), message }, hintHeaders(spec.hint ?? 'none', spec.hintMs ?? 1000));
}

/** `{ role, content }` with content a string or `[{ type: 'text', text } | { type: 'document', … }]`. */
function prompt(body: Obj): Prompt {
  let inputWords = 0;
  let lastUserText = '';
  let mayCallTools = false;
  for (const m of Array.isArray(body.messages) ? body.messages : []) {
    if (!isObj(m)) continue;
    const text = textOf(m.content);
    inputWords += countWords(text);
    if (m.role === 'user') {
      lastUserText = text;
      mayCallTools = true;
    } else if (m.role === 'tool') {
      lastUserText = text;
      mayCallTools = false;
    } else if (m.role === 'assistant') mayCallTools = false;
  }
  const tools: string[] = [];
  for (const t of Array.isArray(body.tools) ? body.tools : [])
    if (isObj(t) && isObj(t.function) && typeof t.function.name === 'string') tools.push(t.function.name);
  return {
    lastUserText,
    inputWords,
    tools,
    mayCallTools,
    maxTokens: typeof body.max_tokens === 'number' ? body.max_tokens : undefined,
    model: String(body.model),
  };
}

const FINISH = { stop: 'COMPLETE', length: 'MAX_TOKENS', tool_calls: 'TOOL_CALL' } as const;
const THINKING = 'Let me think about this request.';

function usageOf(a: Answer): Obj {
  const input = a.usage.input + a.usage.cacheRead;
  const output = a.usage.output + a.usage.reasoning;
  return {
    billed_units: { input_tokens: a.usage.input, output_tokens: a.usage.output },
    tokens: { input_tokens: input, output_tokens: output },
    cached_tokens: a.usage.cacheRead,
  };
}

const toolPlan = (a: Answer) => `I will call ${a.toolCalls.map((c) => c.name).join(', ')}.`;

function message(a: Answer, thinking: boolean): Obj {
  const content: Obj[] = thinking ? [{ type: 'thinking', thinking: THINKING }] : [];
  if (a.toolCalls.length === 0) {
    content.push({ type: 'text', text: a.text });
    return { role: 'assistant', content };
  }
  const out: Obj = { role: 'assistant', tool_plan: toolPlan(a) };
  if (content.length > 0) out.content = content;
  out.tool_calls = a.toolCalls.map((c) => ({
    id: c.id,
    type: 'function',
    function: { name: c.name, arguments: c.arguments },
  }));
  return out;
}

/**
 * The v2 event sequence: message-start, content-start/delta/end per part (thinking first), or tool-plan-delta then
 * tool-call-start/delta/end per call, and message-end with the finish reason and usage (the terminator). Each event
 * has an `event:` line and its JSON `type`, as Cohere sends them.
 */
function stream(a: Answer, thinking: boolean, eol: string): StreamReply {
  const frames: string[] = [];
  const emit = (type: string, data: Obj) => frames.push(eventFrame(type, JSON.stringify({ type, ...data }), eol));
  const id = newId('');
  emit('message-start', {
    id,
    delta: { message: { role: 'assistant', content: [], tool_plan: '', tool_calls: [], citations: [] } },
  });
  let index = 0;
  if (thinking) {
    emit('content-start', { index, delta: { message: { content: { type: 'thinking', thinking: '' } } } });
    emit('content-delta', { index, delta: { message: { content: { thinking: THINKING } } } });
    emit('content-end', { index });
    index += 1;
  }
  if (a.toolCalls.length === 0) {
    emit('content-start', { index, delta: { message: { content: { type: 'text', text: '' } } } });
    for (const text of a.pieces) emit('content-delta', { index, delta: { message: { content: { text } } } });
    emit('content-end', { index });
  } else {
    emit('tool-plan-delta', { delta: { message: { tool_plan: toolPlan(a) } } });
    a.toolCalls.forEach((c, i) => {
      const start = { id: c.id, type: 'function', function: { name: c.name, arguments: '' } };
      emit('tool-call-start', { index: i, delta: { message: { tool_calls: start } } });
      for (const piece of fragments(c.arguments)) {
        emit('tool-call-delta', { index: i, delta: { message: { tool_calls: { function: { arguments: piece } } } } });
      }
      emit('tool-call-end', { index: i });
    });
  }
  emit('message-end', { id, delta: { finish_reason: FINISH[a.finish], usage: usageOf(a) } });
  const error = JSON.stringify({ type: 'message-end', delta: { finish_reason: 'ERROR', error: 'internal error' } });
  return {
    headers: { ...SSE_HEADERS, ...successHeaders() },
    frames,
    errorFrame: eventFrame('message-end', error, eol),
  };
}

function badBody(req: SimRequest, need: string[]): Reply | undefined {
  if (req.badJson || !isObj(req.body)) return cohereError({ status: 400, message: 'invalid request: invalid JSON' });
  for (const field of need) {
    if (req.body[field] === undefined) {
      return cohereError({ status: 400, message: `invalid request: ${field} must not be empty` });
    }
  }
  return undefined;
}

function chatOperation(req: SimRequest): Operation | Reply {
  const bad = badBody(req, ['model', 'messages']);
  if (bad) return bad;
  const body = req.body as Obj;
  req.model = String(body.model);
  req.stream = body.stream === true;
  const p = prompt(body);
  const thinking = isObj(body.thinking) && body.thinking.type === 'enabled';
  return (knobs) => {
    const a = buildAnswer(p, knobs);
    if (req.stream) return stream(a, thinking, eolOf(knobs.framing, 'lf'));
    return jsonReply(
      200,
      { id: newId(''), finish_reason: FINISH[a.finish], message: message(a, thinking), usage: usageOf(a) },
      successHeaders(),
    );
  };
}

const meta = (billed: Obj, tokens?: Obj): Obj => ({
  api_version: { version: '2' },
  billed_units: billed,
  ...(tokens ? { tokens } : {}),
});

function embedOperation(req: SimRequest): Operation | Reply {
  const bad = badBody(req, ['model', 'texts', 'input_type']);
  if (bad) return bad;
  const body = req.body as Obj;
  req.model = String(body.model);
  const texts = Array.isArray(body.texts) ? body.texts.map(String) : [];
  const dims = typeof body.output_dimension === 'number' ? body.output_dimension : DEFAULT_DIMENSIONS;
  return (knobs) => {
    const tokens = knobs.usage?.input_tokens ?? texts.reduce((n, t) => n + countWords(t), 0);
    return jsonReply(
      200,
      {
        id: newId(''),
        embeddings: { float: texts.map((t) => embed(t, dims)) },
        texts,
        meta: meta({ input_tokens: tokens }),
        response_type: 'embeddings_by_type',
      },
      successHeaders(),
    );
  };
}

function rerankOperation(req: SimRequest): Operation | Reply {
  const bad = badBody(req, ['model', 'query', 'documents']);
  if (bad) return bad;
  const body = req.body as Obj;
  req.model = String(body.model);
  const terms = String(body.query).toLowerCase().split(' ').filter(Boolean);
  const docs = Array.isArray(body.documents) ? body.documents.map(String) : [];
  const topN = typeof body.top_n === 'number' ? body.top_n : docs.length;
  return (knobs) => {
    const results = docs
      .map((text, index) => {
        const hits = terms.filter((t) => text.toLowerCase().includes(t)).length;
        return { index, relevance_score: Math.round(((hits + 1) / (terms.length + 1)) * 1e4) / 1e4 };
      })
      .sort((x, y) => y.relevance_score - x.relevance_score || x.index - y.index)
      .slice(0, topN);
    const tokens = knobs.usage?.input_tokens ?? terms.length + docs.reduce((n, d) => n + countWords(d), 0);
    return jsonReply(
      200,
      { id: newId(''), results, meta: meta({ search_units: 1 }, { input_tokens: tokens }) },
      successHeaders(),
    );
  };
}

const MODELS = ['command-r', 'command-r-plus', 'command-a-03-2025', 'embed-v4.0', 'rerank-v3.5', 'sim-echo'];

/**
 * `/cohere`: v2 chat (unary and SSE), embed, rerank, and `GET /v1/models`. Requires `Authorization: Bearer` (401
 * `{message}` without it).
 */
export const cohereFamily: Family = {
  name: 'cohere',

  authenticate(req) {
    req.key = bearer(req.headers);
    return req.key === undefined ? cohereError({ status: 401, message: 'no api key supplied' }) : undefined;
  },

  route(req) {
    const sub = req.sub;
    if (req.method === 'POST') {
      if (sub === '/v2/chat') return chatOperation(req);
      if (sub === '/v2/embed') return embedOperation(req);
      if (sub === '/v2/rerank') return rerankOperation(req);
    } else if (req.method === 'GET' && sub === '/v1/models') {
      return () =>
        jsonReply(
          200,
          { models: MODELS.map((name) => ({ name, endpoints: ['chat'], context_length: 128000 })) },
          successHeaders(),
        );
    }
    return cohereError({ status: 404, message: `path ${sub} not found` });
  },

  error(_req, spec) {
    return cohereError(spec);
  },
};
