import { countWords, embed } from '../answer.js';
import {
  bearer,
  type ErrorSpec,
  type Family,
  isObj,
  jsonReply,
  type Operation,
  type Reply,
  type SimRequest,
} from '../family.js';
import { anthropicError, anthropicFamily } from './anthropic.js';
import { geminiError, geminiFamily, imagenPredictOperation } from './gemini.js';
import { DEFAULT_DIMENSIONS } from './openai.js';
import { chatOperation } from './openai-chat.js';
import { isIssuedToken, tokenExchange } from './vertex-token.js';

export { vertexServiceAccount } from './vertex-token.js';

const PUBLISHER_MODEL =
  /^\/v1(?:beta1)?\/projects\/([^/]+)\/locations\/([^/]+)\/publishers\/([^/]+)\/models\/([^/:]+):([A-Za-z]+)$/;
const OPENAPI_CHAT = /^\/v1(?:beta1)?\/projects\/([^/]+)\/locations\/([^/]+)\/endpoints\/openapi\/chat\/completions$/;
const ANTHROPIC_VERSION = 'vertex-2023-10-16';

const isClaudePath = (req: SimRequest) => req.sub.includes('/publishers/anthropic/');

const PUBLISHER_MODELS = ['gemini-2.5-flash', 'gemini-2.5-pro', 'gemini-embedding-001', 'text-embedding-005'].map(
  (id) => ({
    name: `publishers/google/models/${id}`,
    versionId: '001',
    launchStage: 'GA',
    openSourceCategory: 'PROPRIETARY',
  }),
);

/** Runs another family's route on a rewritten path and body, and keeps what it learnt (stream) on the request. */
function delegate(req: SimRequest, family: Family, sub: string, body: unknown): Operation | Reply {
  const copy: SimRequest = { ...req, sub, body };
  const operation = family.route(copy);
  req.stream = copy.stream;
  return operation;
}

/** `:predict` of a text-embedding model: `{instances: [{content}]}` → `{predictions: [{embeddings}]}`. */
function predictOperation(req: SimRequest): Operation | Reply {
  const body = isObj(req.body) ? req.body : undefined;
  const instances = Array.isArray(body?.instances) ? body.instances.filter(isObj) : [];
  if (instances.length === 0 || !instances.every((i) => typeof i.content === 'string')) {
    return geminiError({ status: 400, message: 'Invalid request: instances[].content is required.' });
  }
  const parameters = isObj(body?.parameters) ? body.parameters : {};
  const dims =
    typeof parameters.outputDimensionality === 'number' ? parameters.outputDimensionality : DEFAULT_DIMENSIONS;
  return () =>
    jsonReply(200, {
      predictions: instances.map((i) => ({
        embeddings: {
          values: embed(i.content as string, dims),
          statistics: { token_count: countWords(i.content as string), truncated: false },
        },
      })),
      metadata: { billableCharacterCount: instances.reduce((n, i) => n + (i.content as string).length, 0) },
    });
}

/** Claude on Vertex: the Messages body without `model` and with `anthropic_version`, answered as Anthropic does. */
function claudeOperation(req: SimRequest, model: string, method: string): Operation | Reply {
  if (method !== 'rawPredict' && method !== 'streamRawPredict')
    return anthropicError({ status: 404, message: 'Not Found' });
  if (!isObj(req.body))
    return anthropicError({ status: 400, message: 'There was an issue with the request body: invalid JSON.' });
  if (req.body.anthropic_version !== ANTHROPIC_VERSION) {
    return anthropicError({ status: 400, message: `anthropic_version: Input should be '${ANTHROPIC_VERSION}'` });
  }
  if (model === 'count-tokens') return delegate(req, anthropicFamily, '/v1/messages/count_tokens', req.body);
  if (req.body.model !== undefined) {
    return anthropicError({ status: 400, message: 'model: Extra inputs are not permitted (the model is in the URL)' });
  }
  return delegate(req, anthropicFamily, '/v1/messages', { ...req.body, model });
}

/**
 * `/vertex`: Vertex AI's Gemini paths (`/v1` or `/v1beta1`: `/v1/projects/{p}/locations/{r}/publishers/google/models/{m}:generateContent|
 * streamGenerateContent|countTokens|predict`), Claude's (`…/publishers/anthropic/models/{m}:rawPredict|
 * streamRawPredict`), the OpenAI-compatible MaaS chat (`/v1beta1/…/endpoints/openapi/chat/completions`), the
 * publisher model list (`GET /v1beta1/publishers/google/models`) and the OAuth token endpoint (`POST /vertex/token`).
 * API paths need `Authorization: Bearer` with a token this simulator issued (else 401 UNAUTHENTICATED).
 */
export const vertexFamily: Family = {
  name: 'vertex',

  authenticate(req) {
    if (req.sub === '/token') return undefined;
    req.key = bearer(req.headers);
    if (isIssuedToken(req.key)) return undefined;
    return geminiError({
      status: 401,
      message:
        'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.',
    });
  },

  route(req) {
    const sub = req.sub.includes('%') ? decodeURIComponent(req.sub) : req.sub;
    const notFound = geminiError({
      status: 404,
      message: `The requested URL ${req.path} was not found on this server.`,
    });
    if (sub === '/token') return req.method === 'POST' ? tokenExchange(req) : notFound;
    if (req.method === 'GET' && sub === '/v1beta1/publishers/google/models') {
      return () => jsonReply(200, { publisherModels: PUBLISHER_MODELS });
    }
    if (req.method !== 'POST') return notFound;
    if (OPENAPI_CHAT.test(sub)) return chatOperation('openai', req);
    const match = PUBLISHER_MODEL.exec(sub);
    if (!match) return notFound;
    const [, , , publisher, model, method] = match as unknown as [string, string, string, string, string, string];
    req.model = model;
    if (publisher === 'anthropic') return claudeOperation(req, model, method);
    if (publisher !== 'google') return notFound;
    if (method === 'predict')
      return model.startsWith('imagen-') ? imagenPredictOperation(req, model) : predictOperation(req);
    return delegate(req, geminiFamily, `/v1/models/${model}:${method}`, req.body);
  },

  /** The platform's errors (auth, quota) are Google's shape for every model; Claude's own are Anthropic's. */
  error(req, spec: ErrorSpec) {
    const platform = !spec.overloaded && [401, 403, 429].includes(spec.status);
    if (isClaudePath(req) && !platform) return anthropicError(spec);
    return geminiError(spec);
  },
};
