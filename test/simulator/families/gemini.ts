import {
  type Answer,
  buildAnswer,
  countWords,
  embed,
  newId,
  type Prompt,
  textOf,
  type UsageNumbers,
} from '../answer.js';
import {
  dataFrame,
  eolOf,
  type ErrorSpec,
  type Family,
  hintHeaders,
  isObj,
  jsonReply,
  type Operation,
  type Reply,
  type SimRequest,
  SSE_HEADERS,
  type StreamReply,
} from '../family.js';
import type { Framing } from '../types.js';
import { DEFAULT_DIMENSIONS } from './openai.js';
import { SIM_PNG_BASE64 } from './openai-media.js';

type Obj = Record<string, unknown>;

const JSON_TYPE = 'application/json; charset=UTF-8';

const ERRORS: Record<number, { status: string; message: string }> = {
  400: { status: 'INVALID_ARGUMENT', message: 'Request contains an invalid argument.' },
  401: { status: 'UNAUTHENTICATED', message: 'Request had invalid authentication credentials.' },
  403: { status: 'PERMISSION_DENIED', message: 'The caller does not have permission' },
  404: { status: 'NOT_FOUND', message: 'Requested entity was not found.' },
  429: {
    status: 'RESOURCE_EXHAUSTED',
    message: 'You exceeded your current quota, please check your plan and billing details.',
  },
  500: { status: 'INTERNAL', message: 'An internal error has occurred. Please retry or report the issue.' },
  502: { status: 'UNAVAILABLE', message: 'Bad gateway.' },
  503: { status: 'UNAVAILABLE', message: 'The model is overloaded. Please try again later.' },
  504: { status: 'DEADLINE_EXCEEDED', message: 'Deadline expired before operation could complete.' },
};

/** Gemini's `google.protobuf.Duration` JSON: seconds with up to 3 decimals (`37s`, `1.5s`). */
const duration = (ms: number) => `${Number((ms / 1000).toFixed(3))}s`;

function errorBody(spec: ErrorSpec): Obj {
  const status = spec.overloaded ? 503 : spec.status;
  const known = ERRORS[status] ?? { status: status >= 500 ? 'INTERNAL' : 'FAILED_PRECONDITION', message: 'Error.' };
  const error: Obj = { code: status, message: spec.message ?? known.message, status: spec.code ?? known.status };
  const hint = spec.hint ?? 'gemini-retry-info';
  const details: Obj[] = [];
  if (status === 429) {
    details.push({
      '@type': 'type.googleapis.com/google.rpc.QuotaFailure',
      violations: [
        {
          quotaMetric: 'generativelanguage.googleapis.com/generate_content_free_tier_requests',
          quotaId: 'GenerateRequestsPerMinutePerProjectPerModel-FreeTier',
        },
      ],
    });
  }
  if (hint === 'gemini-retry-info' && (spec.hintMs ?? 0) > 0) {
    details.push({ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: duration(spec.hintMs!) });
  }
  if (details.length > 0) error.details = details;
  return { error };
}

export function geminiError(spec: ErrorSpec): Reply {
  const body = errorBody(spec);
  return jsonReply((body.error as Obj).code as number, body, {
    'content-type': JSON_TYPE,
    ...hintHeaders(spec.hint ?? 'gemini-retry-info', spec.hintMs ?? 1000),
  });
}

const STREAM_ERROR = JSON.stringify(errorBody({ status: 500 }));

function prompt(body: Obj, model: string): Prompt {
  let inputWords = countWords(textOf(body.systemInstruction));
  let lastUserText = '';
  let mayCallTools = false;
  const contents = Array.isArray(body.contents) ? body.contents : [];
  for (const c of contents) {
    if (!isObj(c)) continue;
    const text = textOf(c.parts);
    inputWords += countWords(text);
    if (c.role === undefined || c.role === 'user') {
      lastUserText = text;
      mayCallTools = !(Array.isArray(c.parts) && c.parts.some((p) => isObj(p) && p.functionResponse !== undefined));
    } else mayCallTools = false;
  }
  const tools: string[] = [];
  if (Array.isArray(body.tools)) {
    for (const t of body.tools) {
      if (!isObj(t) || !Array.isArray(t.functionDeclarations)) continue;
      for (const f of t.functionDeclarations) if (isObj(f) && typeof f.name === 'string') tools.push(f.name);
    }
  }
  const config = isObj(body.generationConfig) ? body.generationConfig : {};
  return {
    lastUserText,
    inputWords,
    tools,
    mayCallTools,
    maxTokens: typeof config.maxOutputTokens === 'number' ? config.maxOutputTokens : undefined,
    model,
  };
}

function usageMetadata(u: UsageNumbers): Obj {
  const prompt = u.input + u.cacheRead;
  const usage: Obj = {
    promptTokenCount: prompt,
    candidatesTokenCount: u.output,
    totalTokenCount: prompt + u.output + u.reasoning,
    promptTokensDetails: [{ modality: 'TEXT', tokenCount: prompt }],
  };
  if (u.cacheRead > 0) {
    usage.cachedContentTokenCount = u.cacheRead;
    usage.cacheTokensDetails = [{ modality: 'TEXT', tokenCount: u.cacheRead }];
  }
  if (u.reasoning > 0) usage.thoughtsTokenCount = u.reasoning;
  return usage;
}

const FINISH = { stop: 'STOP', length: 'MAX_TOKENS', tool_calls: 'STOP' } as const;

/** One GenerateContentResponse; `last` carries finishReason, usage and grounding (as Gemini's last chunk does). */
function response(a: Answer, parts: Obj[], id: string, last: boolean, query: string): Obj {
  const candidate: Obj = { content: { parts, role: 'model' } };
  if (last) {
    candidate.finishReason = FINISH[a.finish];
    if (a.usage.webSearch > 0) {
      candidate.groundingMetadata = {
        webSearchQueries: Array.from({ length: a.usage.webSearch }, (_, i) => (i === 0 ? query : `${query} ${i + 1}`)),
        groundingChunks: [{ web: { uri: 'https://example.com/result', title: 'example.com' } }],
      };
    }
  }
  candidate.index = 0;
  const out: Obj = { candidates: [candidate] };
  if (last) out.usageMetadata = usageMetadata(a.usage);
  out.modelVersion = a.model;
  out.responseId = id;
  return out;
}

const callParts = (a: Answer) =>
  a.toolCalls.map((c) => ({ functionCall: { name: c.name, args: JSON.parse(c.arguments) as Obj } }));

/** `alt=sse`: `data:` whole responses, CRLF-separated by default; otherwise a streamed JSON array. */
function stream(a: Answer, sse: boolean, query: string, framing: Framing | undefined): StreamReply {
  const id = newId('');
  const bodies: Obj[] = [];
  if (a.toolCalls.length > 0) bodies.push(response(a, callParts(a), id, true, query));
  else {
    const pieces = a.pieces.length > 0 ? a.pieces : [''];
    pieces.forEach((text, i) => bodies.push(response(a, [{ text }], id, i === pieces.length - 1, query)));
  }
  if (sse) {
    const eol = eolOf(framing, 'crlf');
    return {
      headers: { ...SSE_HEADERS },
      frames: bodies.map((b) => dataFrame(JSON.stringify(b), eol)),
      errorFrame: dataFrame(STREAM_ERROR, eol),
    };
  }
  const frames = bodies.map((b, i) => (i === 0 ? '[' : ',\r\n') + JSON.stringify(b));
  frames.push(']');
  return { headers: { 'content-type': JSON_TYPE }, frames, errorFrame: `,\r\n${STREAM_ERROR}]` };
}

function badBody(req: SimRequest, field: string): Reply | undefined {
  if (req.badJson || !isObj(req.body)) {
    return geminiError({ status: 400, message: 'Invalid JSON payload received. Unexpected token.' });
  }
  if (req.body[field] === undefined) {
    return geminiError({ status: 400, message: `* GenerateContentRequest.${field}: ${field} is not specified` });
  }
  return undefined;
}

/** Aspect ratios Google's image models take. */
const ASPECT_RATIOS: ReadonlySet<string> = new Set(['1:1', '3:4', '4:3', '9:16', '16:9']);

/** Whether a generateContent request asks for images (`generationConfig.responseModalities` lists IMAGE). */
function wantsImage(body: Obj): boolean {
  const config = isObj(body.generationConfig) ? body.generationConfig : {};
  return Array.isArray(config.responseModalities) && config.responseModalities.includes('IMAGE');
}

/**
 * A Gemini image model's generateContent: one text part then one `inlineData` PNG, usage with IMAGE tokens out
 * (1290 per image, as Google counts them). Only `*-image*` models make images; others answer 400 as Google does.
 */
function imageGenerateOperation(req: SimRequest, model: string): Operation | Reply {
  if (!model.includes('-image')) {
    return geminiError({ status: 400, message: 'Model does not support the requested response modalities: image' });
  }
  const body = req.body as Obj;
  const config = isObj(body.generationConfig) ? body.generationConfig : {};
  const imageConfig = isObj(config.imageConfig) ? config.imageConfig : {};
  if (imageConfig.aspectRatio !== undefined && !ASPECT_RATIOS.has(imageConfig.aspectRatio as string)) {
    return geminiError({ status: 400, message: 'Unsupported aspect ratio.' });
  }
  const p = prompt(body, model);
  return () => {
    const text = `Here is ${p.lastUserText}`;
    const output = countWords(text);
    return jsonReply(
      200,
      {
        candidates: [
          {
            content: {
              role: 'model',
              parts: [{ text }, { inlineData: { mimeType: 'image/png', data: SIM_PNG_BASE64 } }],
            },
            finishReason: 'STOP',
            index: 0,
          },
        ],
        usageMetadata: {
          promptTokenCount: p.inputWords,
          candidatesTokenCount: output + 1290,
          totalTokenCount: p.inputWords + output + 1290,
          promptTokensDetails: [{ modality: 'TEXT', tokenCount: p.inputWords }],
          candidatesTokensDetails: [
            { modality: 'TEXT', tokenCount: output },
            { modality: 'IMAGE', tokenCount: 1290 },
          ],
        },
        modelVersion: model,
        responseId: newId(''),
      },
      { 'content-type': JSON_TYPE },
    );
  };
}

/**
 * Imagen's `:predict`: `{instances: [{prompt}], parameters: {sampleCount, aspectRatio}}` → `sampleCount` PNGs as
 * `predictions[].bytesBase64Encoded`. Vertex serves the same body on its publisher path.
 */
export function imagenPredictOperation(req: SimRequest, model: string): Operation | Reply {
  if (!model.startsWith('imagen-')) {
    return geminiError({ status: 404, message: `models/${model} is not found for API version v1beta, or predict.` });
  }
  const body = isObj(req.body) ? req.body : undefined;
  const instances = Array.isArray(body?.instances) ? body.instances.filter(isObj) : [];
  if (instances.length !== 1 || typeof instances[0]!.prompt !== 'string' || instances[0]!.prompt === '') {
    return geminiError({ status: 400, message: 'Invalid request: instances[0].prompt is required.' });
  }
  const parameters = isObj(body?.parameters) ? body.parameters : {};
  const count = parameters.sampleCount ?? 1;
  if (typeof count !== 'number' || count < 1 || count > 4) {
    return geminiError({ status: 400, message: 'sampleCount must be between 1 and 4.' });
  }
  if (parameters.aspectRatio !== undefined && !ASPECT_RATIOS.has(parameters.aspectRatio as string)) {
    return geminiError({ status: 400, message: 'Unsupported aspect ratio.' });
  }
  return () =>
    jsonReply(
      200,
      {
        predictions: Array.from({ length: count }, () => ({
          bytesBase64Encoded: SIM_PNG_BASE64,
          mimeType: 'image/png',
        })),
      },
      { 'content-type': JSON_TYPE },
    );
}

function generateOperation(req: SimRequest, model: string, streaming: boolean): Operation | Reply {
  const bad = badBody(req, 'contents');
  if (bad) return bad;
  req.stream = streaming;
  if (!streaming && wantsImage(req.body as Obj)) return imageGenerateOperation(req, model);
  const p = prompt(req.body as Obj, model);
  const sse = req.query.get('alt') === 'sse';
  return (knobs) => {
    const a = buildAnswer(p, knobs);
    if (streaming) return stream(a, sse, p.lastUserText, knobs.framing);
    const parts = a.toolCalls.length > 0 ? callParts(a) : [{ text: a.text }];
    return jsonReply(200, response(a, parts, newId(''), true, p.lastUserText), { 'content-type': JSON_TYPE });
  };
}

function dimsOf(o: Obj): number {
  return typeof o.outputDimensionality === 'number' && o.outputDimensionality > 0
    ? Math.min(o.outputDimensionality, 4096)
    : DEFAULT_DIMENSIONS;
}

const MODELS = [
  { name: 'models/gemini-2.5-flash', methods: ['generateContent', 'countTokens'] },
  { name: 'models/gemini-2.5-pro', methods: ['generateContent', 'countTokens'] },
  { name: 'models/gemini-embedding-001', methods: ['embedContent', 'countTokens'] },
  { name: 'models/gemini-2.5-flash-image', methods: ['generateContent', 'countTokens'] },
  { name: 'models/imagen-4.0-generate-001', methods: ['predict'] },
  { name: 'models/sim-echo', methods: ['generateContent', 'countTokens', 'embedContent'] },
].map((m) => ({
  name: m.name,
  version: '001',
  displayName: m.name.slice('models/'.length),
  description: 'Simulated model',
  inputTokenLimit: 1048576,
  outputTokenLimit: 65536,
  supportedGenerationMethods: m.methods,
}));

const VERSIONS = new Set(['/v1beta', '/v1', '/v1alpha']);

/**
 * `/gemini`: `/v1beta/models/{m}:generateContent|streamGenerateContent|embedContent|batchEmbedContents|countTokens`
 * and `GET /v1beta/models[/{m}]` (also `/v1`). Auth `x-goog-api-key` or `?key=`; without one, 403 as Google does.
 */
export const geminiFamily: Family = {
  name: 'gemini',

  authenticate(req) {
    const header = req.headers['x-goog-api-key'];
    req.key = (typeof header === 'string' && header !== '' ? header : undefined) ?? (req.query.get('key') || undefined);
    if (req.key !== undefined) return undefined;
    return geminiError({
      status: 403,
      message:
        "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.",
    });
  },

  route(req) {
    const sub = req.sub.includes('%') ? decodeURIComponent(req.sub) : req.sub;
    const notFound = geminiError({
      status: 404,
      message: `The requested URL ${req.path} was not found on this server.`,
    });
    const at = sub.indexOf('/models');
    if (at < 0 || !VERSIONS.has(sub.slice(0, at))) return notFound;
    const rest = sub.slice(at + '/models'.length);
    if (rest === '') {
      return req.method === 'GET' ? () => jsonReply(200, { models: MODELS }, { 'content-type': JSON_TYPE }) : notFound;
    }
    const name = rest.slice(1);
    const colon = name.lastIndexOf(':');
    if (colon < 0) {
      if (req.method !== 'GET') return notFound;
      req.model = name;
      const found = MODELS.find((m) => m.name === `models/${name}`);
      return found ? () => jsonReply(200, found, { 'content-type': JSON_TYPE }) : notFound;
    }
    if (req.method !== 'POST') return notFound;
    const model = name.slice(0, colon);
    req.model = model;
    switch (name.slice(colon + 1)) {
      case 'generateContent':
        return generateOperation(req, model, false);
      case 'streamGenerateContent':
        return generateOperation(req, model, true);
      case 'predict':
        return imagenPredictOperation(req, model);
      case 'countTokens': {
        if (req.badJson || !isObj(req.body)) return badBody(req, 'contents')!;
        const body = req.body;
        const inner = isObj(body.generateContentRequest) ? body.generateContentRequest : body;
        const p = prompt(inner, model);
        return (knobs) => {
          const tokens = knobs.usage?.input_tokens ?? p.inputWords;
          return jsonReply(
            200,
            { totalTokens: tokens, promptTokensDetails: [{ modality: 'TEXT', tokenCount: tokens }] },
            { 'content-type': JSON_TYPE },
          );
        };
      }
      case 'embedContent': {
        const bad = badBody(req, 'content');
        if (bad) return bad;
        const body = req.body as Obj;
        return () =>
          jsonReply(
            200,
            { embedding: { values: embed(textOf(body.content), dimsOf(body)) } },
            { 'content-type': JSON_TYPE },
          );
      }
      case 'batchEmbedContents': {
        const bad = badBody(req, 'requests');
        if (bad) return bad;
        const requests = (req.body as Obj).requests;
        const list = Array.isArray(requests) ? requests.filter(isObj) : [];
        return () =>
          jsonReply(
            200,
            { embeddings: list.map((r) => ({ values: embed(textOf(r.content), dimsOf(r)) })) },
            { 'content-type': JSON_TYPE },
          );
      }
      default:
        return notFound;
    }
  },

  error(_req, spec) {
    return geminiError(spec);
  },
};
