import { type Answer, buildAnswer, newId } from '../answer.js';
import {
  dataFrame,
  eolOf,
  fragments,
  isObj,
  jsonReply,
  nowSeconds,
  type Operation,
  type Reply,
  type SimRequest,
  SSE_HEADERS,
  type StreamReply,
} from '../family.js';
import {
  AZURE_FILTER_RESULTS,
  AZURE_PROMPT_FILTER,
  badBody,
  chatPrompt,
  chatUsage,
  completionPrompt,
  type Flavor,
  successHeaders,
} from './openai-wire.js';

type Obj = Record<string, unknown>;

const IN_STREAM_ERROR = JSON.stringify({
  error: {
    message: 'The server had an error while processing your request. Sorry about that!',
    type: 'server_error',
    param: null,
    code: null,
  },
});
const AZURE_FIRST_CHUNK = JSON.stringify({
  choices: [],
  created: 0,
  id: '',
  model: '',
  object: '',
  prompt_filter_results: AZURE_PROMPT_FILTER,
});

function includeUsage(body: Obj): boolean {
  return isObj(body.stream_options) && body.stream_options.include_usage === true;
}

function chatMessage(a: Answer): Obj {
  const message: Obj = {
    role: 'assistant',
    content: a.toolCalls.length > 0 ? null : a.text,
    refusal: null,
    annotations: [],
  };
  if (a.toolCalls.length > 0) {
    message.tool_calls = a.toolCalls.map((c) => ({
      id: c.id,
      type: 'function',
      function: { name: c.name, arguments: c.arguments },
    }));
  }
  return message;
}

function chatUnary(flavor: Flavor, a: Answer): Reply {
  const choice: Obj = { index: 0, message: chatMessage(a), logprobs: null, finish_reason: a.finish };
  const body: Obj = {
    id: newId('chatcmpl-'),
    object: 'chat.completion',
    created: nowSeconds(),
    model: a.model,
    choices: [choice],
    usage: chatUsage(a.usage),
    service_tier: 'default',
    system_fingerprint: 'fp_sim',
  };
  if (flavor === 'azure') {
    choice.content_filter_results = AZURE_FILTER_RESULTS;
    body.prompt_filter_results = AZURE_PROMPT_FILTER;
  }
  return jsonReply(200, body, successHeaders(flavor));
}

/**
 * Chat chunks: a role delta, content (or tool call) deltas, a finish delta; with `include_usage` every chunk has
 * `usage: null` and a last chunk has `choices: []` and the usage; then `data: [DONE]`. Azure opens with a chunk of
 * empty choices carrying `prompt_filter_results`.
 */
function chatStream(flavor: Flavor, a: Answer, withUsage: boolean, eol: string): StreamReply {
  const head = `{"id":"${newId('chatcmpl-')}","object":"chat.completion.chunk","created":${nowSeconds()},"model":${JSON.stringify(a.model)},"service_tier":"default","system_fingerprint":"fp_sim","choices":[`;
  const tail = withUsage ? '],"usage":null}' : ']}';
  const frame = (delta: string, finish = 'null') =>
    dataFrame(`${head}{"index":0,"delta":${delta},"logprobs":null,"finish_reason":${finish}}${tail}`, eol);
  const frames: string[] = [];
  if (flavor === 'azure') frames.push(dataFrame(AZURE_FIRST_CHUNK, eol));
  if (a.toolCalls.length === 0) {
    frames.push(frame('{"role":"assistant","content":"","refusal":null}'));
    for (const piece of a.pieces) frames.push(frame(`{"content":${JSON.stringify(piece)}}`));
  } else {
    a.toolCalls.forEach((c, index) => {
      const open = JSON.stringify({
        ...(index === 0 ? { role: 'assistant', content: null } : {}),
        tool_calls: [{ index, id: c.id, type: 'function', function: { name: c.name, arguments: '' } }],
      });
      frames.push(frame(open));
      for (const part of fragments(c.arguments)) {
        frames.push(frame(JSON.stringify({ tool_calls: [{ index, function: { arguments: part } }] })));
      }
    });
  }
  frames.push(frame('{}', `"${a.finish}"`));
  if (withUsage) frames.push(dataFrame(`${head}],"usage":${JSON.stringify(chatUsage(a.usage))}}`, eol));
  frames.push(`data: [DONE]${eol}${eol}`);
  return {
    headers: { ...SSE_HEADERS, ...successHeaders(flavor) },
    frames,
    errorFrame: dataFrame(IN_STREAM_ERROR, eol),
  };
}

export function chatOperation(flavor: Flavor, req: SimRequest): Operation | Reply {
  const bad = badBody(flavor, req, flavor === 'openai' ? ['model', 'messages'] : ['messages']);
  if (bad) return bad;
  const body = req.body as Obj;
  if (typeof body.model === 'string') req.model = body.model;
  req.stream = body.stream === true;
  const prompt = chatPrompt({ ...body, model: req.model });
  return (knobs) => {
    const a = buildAnswer(prompt, knobs);
    return req.stream ? chatStream(flavor, a, includeUsage(body), eolOf(knobs.framing, 'lf')) : chatUnary(flavor, a);
  };
}

/** Legacy `/completions`: `text_completion` objects, the same stream terminators as chat. */
export function completionsOperation(flavor: Flavor, req: SimRequest): Operation | Reply {
  const bad = badBody(flavor, req, flavor === 'openai' ? ['model', 'prompt'] : ['prompt']);
  if (bad) return bad;
  const body = req.body as Obj;
  if (typeof body.model === 'string') req.model = body.model;
  req.stream = body.stream === true;
  const prompt = completionPrompt({ ...body, model: req.model });
  return (knobs) => {
    const a = buildAnswer(prompt, knobs);
    const id = newId('cmpl-');
    const created = nowSeconds();
    if (!req.stream) {
      return jsonReply(
        200,
        {
          id,
          object: 'text_completion',
          created,
          model: a.model,
          choices: [{ text: a.text, index: 0, logprobs: null, finish_reason: a.finish }],
          usage: chatUsage(a.usage),
          system_fingerprint: 'fp_sim',
        },
        successHeaders(flavor),
      );
    }
    const eol = eolOf(knobs.framing, 'lf');
    const withUsage = includeUsage(body);
    const head = `{"id":"${id}","object":"text_completion","created":${created},"model":${JSON.stringify(a.model)},"choices":[`;
    const tail = withUsage ? '],"usage":null}' : ']}';
    const frame = (text: string, finish: string) =>
      dataFrame(
        `${head}{"text":${JSON.stringify(text)},"index":0,"logprobs":null,"finish_reason":${finish}}${tail}`,
        eol,
      );
    const frames = a.pieces.map((p) => frame(p, 'null'));
    frames.push(frame('', `"${a.finish}"`));
    if (withUsage) frames.push(dataFrame(`${head}],"usage":${JSON.stringify(chatUsage(a.usage))}}`, eol));
    frames.push(`data: [DONE]${eol}${eol}`);
    return {
      headers: { ...SSE_HEADERS, ...successHeaders(flavor) },
      frames,
      errorFrame: dataFrame(IN_STREAM_ERROR, eol),
    };
  };
}
