import { randomUUID } from 'node:crypto';
import { EventStreamCodec, type MessageHeaders } from '@smithy/eventstream-codec';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import { type Answer, buildAnswer, countWords, embed, type Prompt, type UsageNumbers } from '../answer.js';
import {
  bearer,
  type ErrorSpec,
  type Family,
  fragments,
  isObj,
  isStream,
  jsonReply,
  type Operation,
  type Reply,
  type SimRequest,
  type StreamReply,
} from '../family.js';
import { anthropicFamily } from './anthropic.js';
import { verifySigV4 } from './bedrock-sigv4.js';

export { SIM_AWS } from './bedrock-sigv4.js';

type Obj = Record<string, unknown>;

/** Exception name by status, as Bedrock's runtime answers them (reference §2.5). */
const EXCEPTIONS: Record<number, { type: string; message: string }> = {
  400: { type: 'ValidationException', message: 'Malformed input request, please reformat your input and try again.' },
  403: { type: 'AccessDeniedException', message: "You don't have access to the model with the specified model ID." },
  404: { type: 'ResourceNotFoundException', message: 'The requested resource could not be found.' },
  408: { type: 'ModelTimeoutException', message: 'Model has timed out in processing the request.' },
  424: { type: 'ModelErrorException', message: 'The model returned an error.' },
  429: { type: 'ThrottlingException', message: 'Too many requests, please wait before trying again.' },
  500: { type: 'InternalServerException', message: 'The server encountered an internal error.' },
  503: { type: 'ServiceUnavailableException', message: 'The service is unavailable. Please try again later.' },
};

/** A native error: `{"message"}` with the exception in `x-amzn-ErrorType` (no retry hint, Bedrock sends none). */
export function bedrockError(status: number, type?: string, message?: string): Reply {
  const known = EXCEPTIONS[status] ?? EXCEPTIONS[status >= 500 ? 500 : 400]!;
  const name = type ?? known.type;
  return jsonReply(
    status,
    { message: message ?? known.message },
    {
      'x-amzn-errortype': `${name}:http://internal.amazon.com/coral/com.amazon.bedrock/`,
      'x-amzn-requestid': randomUUID(),
    },
  );
}

const errorOf = (spec: ErrorSpec): Reply =>
  bedrockError(spec.overloaded ? 503 : spec.status, spec.code ?? undefined, spec.message);

const codec = new EventStreamCodec(toUtf8, fromUtf8);

/** One `application/vnd.amazon.eventstream` message: prelude, string headers, JSON payload, CRCs. */
function encodeEventStreamFrame(headers: Record<string, string>, payload: Obj): Uint8Array {
  const tagged: MessageHeaders = {};
  for (const [name, value] of Object.entries(headers)) tagged[name] = { type: 'string', value };
  return codec.encode({ headers: tagged, body: fromUtf8(JSON.stringify(payload)) });
}

const EVENT_STREAM_HEADERS = { 'content-type': 'application/vnd.amazon.eventstream' };

function eventFrame(type: string, payload: Obj): Uint8Array {
  return encodeEventStreamFrame(
    { ':event-type': type, ':content-type': 'application/json', ':message-type': 'event' },
    payload,
  );
}

/** The in-stream throttling exception (a `stream_error` fault). */
const THROTTLING_FRAME = encodeEventStreamFrame(
  { ':exception-type': 'throttlingException', ':content-type': 'application/json', ':message-type': 'exception' },
  { message: 'Too many requests, please wait before trying again.' },
);

/** The texts of Converse content blocks (text, tool results' text). */
function blockText(content: unknown): string {
  if (!Array.isArray(content)) return '';
  const texts: string[] = [];
  for (const block of content) {
    if (!isObj(block)) continue;
    if (typeof block.text === 'string') texts.push(block.text);
    else if (isObj(block.toolResult)) texts.push(blockText(block.toolResult.content));
  }
  return texts.join(' ');
}

function conversePrompt(body: Obj, model: string): Prompt {
  let inputWords = countWords(blockText(body.system));
  let lastUserText = '';
  let mayCallTools = false;
  for (const m of Array.isArray(body.messages) ? body.messages : []) {
    if (!isObj(m)) continue;
    const text = blockText(m.content);
    inputWords += countWords(text);
    if (m.role === 'user') {
      lastUserText = text;
      mayCallTools = !(Array.isArray(m.content) && m.content.some((b) => isObj(b) && b.toolResult !== undefined));
    } else mayCallTools = false;
  }
  const tools: string[] = [];
  const config = isObj(body.toolConfig) ? body.toolConfig : {};
  for (const t of Array.isArray(config.tools) ? config.tools : [])
    if (isObj(t) && isObj(t.toolSpec) && typeof t.toolSpec.name === 'string') tools.push(t.toolSpec.name);
  const inference = isObj(body.inferenceConfig) ? body.inferenceConfig : {};
  return {
    lastUserText,
    inputWords,
    tools,
    mayCallTools,
    maxTokens: typeof inference.maxTokens === 'number' ? inference.maxTokens : undefined,
    model,
  };
}

/** The `cachePoint` blocks of the system prompt, the messages and the tools; the first malformed one, if any. */
function cachePoints(body: Obj): { count: number; malformed?: string } {
  const config = isObj(body.toolConfig) ? body.toolConfig : {};
  const lists: Array<[string, unknown]> = [
    ['system', body.system],
    ['toolConfig.tools', config.tools],
    ...(Array.isArray(body.messages) ? body.messages : []).map((m, i): [string, unknown] => [
      `messages.${i}.content`,
      isObj(m) ? m.content : undefined,
    ]),
  ];
  let count = 0;
  for (const [where, list] of lists) {
    if (!Array.isArray(list)) continue;
    for (const [j, block] of list.entries()) {
      if (!isObj(block) || block.cachePoint === undefined) continue;
      if (j === 0 || !isObj(block.cachePoint) || block.cachePoint.type !== 'default' || Object.keys(block).length > 1)
        return { count, malformed: `${where}.${j}.cachePoint` };
      count++;
    }
  }
  return { count };
}

/**
 * Words of the prompt before its last cachePoint, as Bedrock caches them (system, then messages): the tokens a first
 * request writes to the cache.
 */
function cachedPrefixWords(body: Obj): number {
  const blocks: unknown[] = [
    ...(Array.isArray(body.system) ? body.system : []),
    ...(Array.isArray(body.messages) ? body.messages : []).flatMap((m) =>
      isObj(m) && Array.isArray(m.content) ? m.content : [],
    ),
  ];
  let words = 0;
  let cached = 0;
  for (const block of blocks) {
    if (isObj(block) && block.cachePoint !== undefined) cached = words;
    else words += countWords(blockText([block]));
  }
  return cached;
}

function usageOf(u: UsageNumbers): Obj {
  const output = u.output + u.reasoning;
  const usage: Obj = {
    inputTokens: u.input,
    outputTokens: output,
    totalTokens: u.input + u.cacheRead + u.cacheWrite + output,
  };
  if (u.cacheRead) usage.cacheReadInputTokens = u.cacheRead;
  if (u.cacheWrite) usage.cacheWriteInputTokens = u.cacheWrite;
  return usage;
}

const STOP_REASONS = { stop: 'end_turn', length: 'max_tokens', tool_calls: 'tool_use' } as const;
const THINKING = 'Let me think about this request.';
const SIGNATURE = 'c2ltdWxhdG9yIHNpZ25hdHVyZQ==';
const toolUseId = (callId: string) => `tooluse_${callId.slice('call_'.length)}`;

/** Anthropic's test string: with thinking on, Claude answers with redacted thinking (an opaque, encrypted block). */
export const REDACTED_THINKING_TRIGGER =
  'ANTHROPIC_MAGIC_STRING_TRIGGER_REDACTED_THINKING_46C9A13E193C177646C7398A98432ECCCE4C1253';
export const REDACTED_CONTENT = 'RWNyeXB0ZWQgcmVhc29uaW5nIG9mIHRoZSBzaW11bGF0b3I=';

type Thinking = 'none' | 'text' | 'redacted';

function thinkingOf(body: Obj, prompt: Prompt): Thinking {
  if (!thinkingEnabled(body)) return 'none';
  return prompt.lastUserText.includes(REDACTED_THINKING_TRIGGER) ? 'redacted' : 'text';
}

function thinkingEnabled(body: Obj): boolean {
  const extra = isObj(body.additionalModelRequestFields) ? body.additionalModelRequestFields : {};
  return isObj(extra.thinking) && extra.thinking.type === 'enabled';
}

function converseContent(a: Answer, thinking: Thinking): Obj[] {
  const blocks: Obj[] =
    thinking === 'text'
      ? [{ reasoningContent: { reasoningText: { text: THINKING, signature: SIGNATURE } } }]
      : thinking === 'redacted'
        ? [{ reasoningContent: { redactedContent: REDACTED_CONTENT } }]
        : [];
  if (a.toolCalls.length === 0) blocks.push({ text: a.text });
  for (const c of a.toolCalls)
    blocks.push({ toolUse: { toolUseId: toolUseId(c.id), name: c.name, input: JSON.parse(c.arguments) as Obj } });
  return blocks;
}

/** messageStart, content blocks (reasoning, text word by word, tool uses with input fragments), messageStop, metadata. */
function converseStream(a: Answer, thinking: Thinking): StreamReply {
  const frames: Uint8Array[] = [eventFrame('messageStart', { role: 'assistant' })];
  let index = 0;
  const block = (deltas: Obj[], start?: Obj) => {
    if (start) frames.push(eventFrame('contentBlockStart', { contentBlockIndex: index, start }));
    for (const delta of deltas) frames.push(eventFrame('contentBlockDelta', { contentBlockIndex: index, delta }));
    frames.push(eventFrame('contentBlockStop', { contentBlockIndex: index }));
    index += 1;
  };
  if (thinking === 'text')
    block([{ reasoningContent: { text: THINKING } }, { reasoningContent: { signature: SIGNATURE } }]);
  if (thinking === 'redacted') block([{ reasoningContent: { redactedContent: REDACTED_CONTENT } }]);
  if (a.toolCalls.length === 0) block(a.pieces.map((text) => ({ text })));
  for (const c of a.toolCalls)
    block(
      fragments(c.arguments).map((input) => ({ toolUse: { input } })),
      { toolUse: { toolUseId: toolUseId(c.id), name: c.name } },
    );
  frames.push(eventFrame('messageStop', { stopReason: STOP_REASONS[a.finish] }));
  frames.push(eventFrame('metadata', { usage: usageOf(a.usage), metrics: { latencyMs: 42 } }));
  return {
    headers: { ...EVENT_STREAM_HEADERS, 'x-amzn-requestid': randomUUID() },
    frames,
    errorFrame: THROTTLING_FRAME,
  };
}

function converseOperation(req: SimRequest, stream: boolean): Operation | Reply {
  if (req.badJson || !isObj(req.body)) return bedrockError(400, 'ValidationException', 'The request body is not JSON.');
  const body = req.body;
  if (!Array.isArray(body.messages) || body.messages.length === 0)
    return bedrockError(400, 'ValidationException', 'A conversation must start with a user message.');
  if (body.model !== undefined)
    return bedrockError(400, 'ValidationException', 'Malformed input request: extraneous key [model] is not permitted');
  const points = cachePoints(body);
  if (points.malformed)
    return bedrockError(400, 'ValidationException', `Malformed input request: ${points.malformed} is not valid here`);
  if (points.count > 4)
    return bedrockError(400, 'ValidationException', 'A maximum of 4 cache points is allowed per request');
  req.stream = stream;
  const p = conversePrompt(body, req.model!);
  const thinking = thinkingOf(body, p);
  const cachedWords = cachedPrefixWords(body);
  return (knobs) => {
    const a = buildAnswer(p, knobs);
    // A prompt with cache points writes its cached prefix (unless the scenario says what the cache did).
    const u = knobs.usage ?? {};
    if (
      cachedWords > 0 &&
      u.input_tokens === undefined &&
      u.cached_write_tokens === undefined &&
      !u.cached_read_tokens
    ) {
      a.usage.cacheWrite = cachedWords;
      a.usage.input -= cachedWords;
    }
    if (stream) return converseStream(a, thinking);
    return jsonReply(
      200,
      {
        output: { message: { role: 'assistant', content: converseContent(a, thinking) } },
        stopReason: STOP_REASONS[a.finish],
        usage: usageOf(a.usage),
        metrics: { latencyMs: 42 },
      },
      { 'x-amzn-requestid': randomUUID() },
    );
  };
}

/** SSE frames of the Anthropic family → `chunk` events whose `bytes` are each event's JSON, base64. */
function invokeStream(sse: StreamReply): StreamReply {
  const frames = sse.frames.flatMap((frame) => {
    const data = String(frame)
      .split('\n')
      .find((line) => line.startsWith('data: '));
    if (data === undefined || data.includes('"type":"ping"')) return [];
    return [eventFrame('chunk', { bytes: Buffer.from(data.slice(6)).toString('base64') })];
  });
  return {
    headers: { ...EVENT_STREAM_HEADERS, 'x-amzn-requestid': randomUUID() },
    frames,
    errorFrame: THROTTLING_FRAME,
  };
}

/** Claude on InvokeModel: the Anthropic family answers the Messages body (Bedrock's version, no `model`). */
function claudeInvoke(req: SimRequest, stream: boolean): Operation | Reply {
  const body = isObj(req.body) ? req.body : {};
  if (body.anthropic_version !== 'bedrock-2023-05-31')
    return bedrockError(400, 'ValidationException', 'anthropic_version: bedrock-2023-05-31 is required');
  if (body.model !== undefined || body.stream !== undefined)
    return bedrockError(400, 'ValidationException', 'extraneous key [model] or [stream] is not permitted');
  req.stream = stream;
  const messages: SimRequest = { ...req, sub: '/v1/messages', body: { ...body, model: req.model, stream } };
  const operation = anthropicFamily.route(messages);
  if (typeof operation !== 'function') return bedrockError(operation.status, 'ValidationException', operation.body);
  return (knobs) => {
    const out = operation(knobs);
    return isStream(out) ? invokeStream(out) : out;
  };
}

/** Titan (`inputText`) and Cohere (`texts`) embeddings on InvokeModel. */
function embeddingInvoke(req: SimRequest): Operation | Reply {
  const body = isObj(req.body) ? req.body : {};
  if (typeof body.inputText === 'string') {
    const text = body.inputText;
    const dims = typeof body.dimensions === 'number' ? body.dimensions : 16;
    return () => jsonReply(200, { embedding: embed(text, dims), inputTextTokenCount: countWords(text) });
  }
  const texts: unknown = body.texts;
  if (Array.isArray(texts) && texts.every((t): t is string => typeof t === 'string')) {
    return () =>
      jsonReply(200, {
        id: randomUUID(),
        embeddings: texts.map((t) => embed(t, 16)),
        response_type: 'embeddings_floats',
        texts,
      });
  }
  return bedrockError(400, 'ValidationException', 'Malformed input request: inputText or texts is required');
}

const FOUNDATION_MODELS = [
  'anthropic.claude-3-5-sonnet-20240620-v1:0',
  'anthropic.claude-3-haiku-20240307-v1:0',
  'amazon.titan-embed-text-v2:0',
  'cohere.embed-english-v3',
].map((modelId) => ({
  modelArn: `arn:aws:bedrock:us-east-1::foundation-model/${modelId}`,
  modelId,
  modelName: modelId,
  providerName: modelId.split('.')[0],
  inputModalities: ['TEXT'],
  outputModalities: modelId.includes('embed') ? ['EMBEDDING'] : ['TEXT'],
  responseStreamingSupported: !modelId.includes('embed'),
  modelLifecycle: { status: 'ACTIVE' },
}));

const MODEL_PATH = /^\/model\/([^/]+)\/(converse|converse-stream|invoke|invoke-with-response-stream)$/;

/**
 * `/bedrock`: the runtime (`/model/{id}/converse|converse-stream|invoke|invoke-with-response-stream`, the id one
 * percent-encoded segment) and the control plane's `GET /foundation-models`. Requests are signed with SigV4 (verified
 * against SIM_AWS; 403 InvalidSignatureException when the signature does not match) or carry a Bedrock API key as
 * `Authorization: Bearer`. The captured key is the access key id or the bearer token.
 */
export const bedrockFamily: Family = {
  name: 'bedrock',

  authenticate(req) {
    const authorization = req.headers.authorization;
    if (typeof authorization === 'string' && authorization.startsWith('AWS4-HMAC-SHA256 ')) {
      const refusal = verifySigV4(req, authorization);
      return refusal ? bedrockError(403, refusal.type, refusal.message) : undefined;
    }
    req.key = bearer(req.headers);
    if (req.key === undefined)
      return bedrockError(403, 'MissingAuthenticationTokenException', 'Missing Authentication Token');
    return undefined;
  },

  route(req) {
    if (req.method === 'GET' && req.sub === '/foundation-models')
      return () => jsonReply(200, { modelSummaries: FOUNDATION_MODELS });
    const m = MODEL_PATH.exec(req.sub);
    if (req.method !== 'POST' || !m) return bedrockError(404, 'UnknownOperationException', 'Unknown operation');
    req.model = decodeURIComponent(m[1]!);
    const operation = m[2]!;
    if (operation === 'converse' || operation === 'converse-stream')
      return converseOperation(req, operation === 'converse-stream');
    if (req.badJson || !isObj(req.body))
      return bedrockError(400, 'ValidationException', 'The request body is not JSON.');
    if (/(^|[./])anthropic\.claude/.test(req.model))
      return claudeInvoke(req, operation === 'invoke-with-response-stream');
    if (operation === 'invoke') return embeddingInvoke(req);
    return bedrockError(400, 'ValidationException', `The model ${req.model} does not support streaming invocation`);
  },

  error(_req, spec) {
    return errorOf(spec);
  },
};
