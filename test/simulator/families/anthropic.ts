import { type Answer, buildAnswer, countWords, newId, type Prompt, textOf, type UsageNumbers } from '../answer.js';
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

type Obj = Record<string, unknown>;

const ERRORS: Record<number, { type: string; message: string }> = {
  400: { type: 'invalid_request_error', message: 'Invalid request.' },
  401: { type: 'authentication_error', message: 'invalid x-api-key' },
  402: { type: 'billing_error', message: 'Your credit balance is too low to access the Anthropic API.' },
  403: { type: 'permission_error', message: 'Your API key does not have permission to use the specified resource.' },
  404: { type: 'not_found_error', message: 'Not found.' },
  413: { type: 'request_too_large', message: 'Request exceeds the maximum allowed number of bytes.' },
  429: {
    type: 'rate_limit_error',
    message: 'This request would exceed the rate limit for your organization of 50 requests per minute.',
  },
  500: { type: 'api_error', message: 'Internal server error' },
  502: { type: 'api_error', message: 'Bad gateway' },
  503: { type: 'api_error', message: 'Service unavailable' },
  504: { type: 'timeout_error', message: 'Request timed out' },
  529: { type: 'overloaded_error', message: 'Overloaded' },
};

const SUCCESS: Readonly<Record<string, string>> = {
  'anthropic-organization-id': '00000000-0000-4000-8000-00000000a11a',
  'anthropic-ratelimit-requests-limit': '4000',
  'anthropic-ratelimit-requests-remaining': '3999',
  'anthropic-ratelimit-requests-reset': '2026-01-01T00:00:01Z',
};
const successHeaders = () => ({ ...SUCCESS, 'request-id': newId('req_') });

export function anthropicError(spec: ErrorSpec): Reply {
  const status = spec.overloaded ? 529 : spec.status;
  const known = ERRORS[status] ?? { type: status >= 500 ? 'api_error' : 'invalid_request_error', message: 'Error' };
  const requestId = newId('req_');
  return jsonReply(
    status,
    {
      type: 'error',
      error: { type: spec.code ?? known.type, message: spec.message ?? known.message },
      request_id: requestId,
    },
    { ...hintHeaders(spec.hint ?? 'retry-after-seconds', spec.hintMs ?? 1000), 'request-id': requestId },
  );
}

const STREAM_ERROR = JSON.stringify({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } });

function prompt(body: Obj): Prompt {
  let inputWords = countWords(textOf(body.system));
  let lastUserText = '';
  let mayCallTools = false;
  const messages = Array.isArray(body.messages) ? body.messages : [];
  for (const m of messages) {
    if (!isObj(m)) continue;
    const text = textOf(m.content);
    inputWords += countWords(text);
    if (m.role === 'user') {
      lastUserText = text;
      const toolResult = Array.isArray(m.content) && m.content.some((b) => isObj(b) && b.type === 'tool_result');
      mayCallTools = !toolResult;
    } else mayCallTools = false;
  }
  const tools: string[] = [];
  if (Array.isArray(body.tools))
    for (const t of body.tools) if (isObj(t) && typeof t.name === 'string') tools.push(t.name);
  return {
    lastUserText,
    inputWords,
    tools,
    mayCallTools,
    maxTokens: typeof body.max_tokens === 'number' ? body.max_tokens : undefined,
    model: String(body.model),
  };
}

function usageOf(u: UsageNumbers): Obj {
  const usage: Obj = {
    input_tokens: u.input,
    cache_creation_input_tokens: u.cacheWrite,
    cache_read_input_tokens: u.cacheRead,
    cache_creation: { ephemeral_5m_input_tokens: u.cacheWrite, ephemeral_1h_input_tokens: 0 },
    output_tokens: u.output + u.reasoning,
    service_tier: 'standard',
  };
  if (u.webSearch > 0) usage.server_tool_use = { web_search_requests: u.webSearch };
  return usage;
}

const STOP_REASONS = { stop: 'end_turn', length: 'max_tokens', tool_calls: 'tool_use' } as const;
const THINKING = 'Let me think about this request.';
const SIGNATURE = 'EqQBCkYIARgCIkBzaW11bGF0b3Igc2lnbmF0dXJl';
const toolUseId = (callId: string) => `toolu_${callId.slice('call_'.length)}`;

function thinkingEnabled(body: Obj): boolean {
  return isObj(body.thinking) && (body.thinking.type === 'enabled' || body.thinking.type === 'adaptive');
}

function content(a: Answer, thinking: boolean): Obj[] {
  const blocks: Obj[] = thinking ? [{ type: 'thinking', thinking: THINKING, signature: SIGNATURE }] : [];
  if (a.toolCalls.length === 0) blocks.push({ type: 'text', text: a.text });
  for (const c of a.toolCalls) {
    blocks.push({ type: 'tool_use', id: toolUseId(c.id), name: c.name, input: JSON.parse(c.arguments) as Obj });
  }
  return blocks;
}

/** message_start (input and cache usage), ping, content blocks, message_delta (cumulative usage), message_stop. */
function stream(a: Answer, thinking: boolean, eol: string): StreamReply {
  const frames: string[] = [];
  const emit = (type: string, data: Obj) => frames.push(eventFrame(type, JSON.stringify({ type, ...data }), eol));
  const usage = usageOf(a.usage);
  emit('message_start', {
    message: {
      id: newId('msg_'),
      type: 'message',
      role: 'assistant',
      model: a.model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { ...usage, output_tokens: 1, server_tool_use: undefined },
    },
  });
  emit('ping', {});
  let index = 0;
  if (thinking) {
    emit('content_block_start', { index, content_block: { type: 'thinking', thinking: '', signature: '' } });
    emit('content_block_delta', { index, delta: { type: 'thinking_delta', thinking: THINKING } });
    emit('content_block_delta', { index, delta: { type: 'signature_delta', signature: SIGNATURE } });
    emit('content_block_stop', { index });
    index += 1;
  }
  if (a.toolCalls.length === 0) {
    emit('content_block_start', { index, content_block: { type: 'text', text: '' } });
    for (const text of a.pieces) emit('content_block_delta', { index, delta: { type: 'text_delta', text } });
    emit('content_block_stop', { index });
  }
  for (const c of a.toolCalls) {
    emit('content_block_start', {
      index,
      content_block: { type: 'tool_use', id: toolUseId(c.id), name: c.name, input: {} },
    });
    for (const partial_json of fragments(c.arguments)) {
      emit('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json } });
    }
    emit('content_block_stop', { index });
    index += 1;
  }
  const final: Obj = {
    input_tokens: usage.input_tokens,
    cache_creation_input_tokens: usage.cache_creation_input_tokens,
    cache_read_input_tokens: usage.cache_read_input_tokens,
    output_tokens: usage.output_tokens,
  };
  if (usage.server_tool_use !== undefined) final.server_tool_use = usage.server_tool_use;
  emit('message_delta', { delta: { stop_reason: STOP_REASONS[a.finish], stop_sequence: null }, usage: final });
  emit('message_stop', {});
  return {
    headers: { ...SSE_HEADERS, ...successHeaders() },
    frames,
    errorFrame: eventFrame('error', STREAM_ERROR, eol),
  };
}

function badBody(req: SimRequest, need: string[]): Reply | undefined {
  if (req.badJson || !isObj(req.body)) {
    return anthropicError({ status: 400, message: 'There was an issue with the request body: invalid JSON.' });
  }
  for (const field of need) {
    if (req.body[field] === undefined) return anthropicError({ status: 400, message: `${field}: Field required` });
  }
  return undefined;
}

function messagesOperation(req: SimRequest): Operation | Reply {
  const bad = badBody(req, ['model', 'max_tokens', 'messages']);
  if (bad) return bad;
  const body = req.body as Obj;
  req.model = String(body.model);
  req.stream = body.stream === true;
  const p = prompt(body);
  const thinking = thinkingEnabled(body);
  return (knobs) => {
    const a = buildAnswer(p, knobs);
    if (req.stream) return stream(a, thinking, eolOf(knobs.framing, 'lf'));
    return jsonReply(
      200,
      {
        id: newId('msg_'),
        type: 'message',
        role: 'assistant',
        model: a.model,
        content: content(a, thinking),
        stop_reason: STOP_REASONS[a.finish],
        stop_sequence: null,
        usage: usageOf(a.usage),
      },
      successHeaders(),
    );
  };
}

const MODELS = [
  { id: 'claude-sonnet-4-5', display_name: 'Claude Sonnet 4.5', created_at: '2025-09-29T00:00:00Z' },
  { id: 'claude-haiku-4-5', display_name: 'Claude Haiku 4.5', created_at: '2025-10-15T00:00:00Z' },
  { id: 'sim-echo', display_name: 'Simulator echo', created_at: '2026-01-01T00:00:00Z' },
].map((m) => ({ type: 'model', ...m }));

/**
 * `/anthropic`: Messages (`/v1/messages`, `/v1/messages/count_tokens`) and `/v1/models`. Requires `x-api-key` (or
 * `Authorization: Bearer`; 401 without either) and `anthropic-version` (400). Paths are matched by suffix, so Azure's `/anthropic/v1/messages` reuses this.
 */
export const anthropicFamily: Family = {
  name: 'anthropic',

  authenticate(req) {
    // `x-api-key` is the documented scheme; the official TypeScript SDK (1.x) sends the key as a Bearer token.
    const key = req.headers['x-api-key'];
    req.key = (typeof key === 'string' && key !== '' ? key : undefined) ?? bearer(req.headers);
    if (req.key === undefined) return anthropicError({ status: 401, message: 'x-api-key header is required' });
    if (req.headers['anthropic-version'] === undefined) {
      return anthropicError({ status: 400, message: 'anthropic-version: header is required' });
    }
    return undefined;
  },

  route(req) {
    const sub = req.sub;
    if (req.method === 'POST') {
      if (sub.endsWith('/v1/messages')) return messagesOperation(req);
      if (sub.endsWith('/v1/messages/count_tokens')) {
        const bad = badBody(req, ['model', 'messages']);
        if (bad) return bad;
        req.model = String((req.body as Obj).model);
        const p = prompt(req.body as Obj);
        return (knobs) => jsonReply(200, { input_tokens: knobs.usage?.input_tokens ?? p.inputWords }, successHeaders());
      }
    } else if (req.method === 'GET') {
      if (sub.endsWith('/v1/models')) {
        return () =>
          jsonReply(
            200,
            { data: MODELS, has_more: false, first_id: MODELS[0]!.id, last_id: MODELS[MODELS.length - 1]!.id },
            successHeaders(),
          );
      }
      const at = sub.lastIndexOf('/v1/models/');
      if (at >= 0) {
        const id = decodeURIComponent(sub.slice(at + '/v1/models/'.length));
        const found = MODELS.find((m) => m.id === id);
        return found
          ? () => jsonReply(200, found, successHeaders())
          : anthropicError({ status: 404, message: `model: ${id}` });
      }
    }
    return anthropicError({ status: 404, message: 'Not Found' });
  },

  error(_req, spec) {
    return anthropicError(spec);
  },
};
