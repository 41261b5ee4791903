import { countWords, embed, embeddingBase64, embedWords, newId } from '../answer.js';
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
import { chatOperation, completionsOperation } from './openai-chat.js';
import { imagesOperation, ocrOperation, speechOperation, transcriptionOperation } from './openai-media.js';
import { inputTokensOperation, responsesOperation } from './openai-responses.js';
import { badBody, type Flavor, openaiError, successHeaders } from './openai-wire.js';

type Obj = Record<string, unknown>;

/** Embedding length when the request names none (real models use 1536 and more; tests need not pay for that). */
export const DEFAULT_DIMENSIONS = 16;

/** Embedding length of the `sim-bow-*` models when the request names none. */
const BOW_DIMENSIONS = 256;

export const OPENAI_MODELS = ['gpt-4o', 'gpt-4o-mini', 'gpt-5-mini', 'text-embedding-3-small', 'sim-echo'];

function embeddingInputs(input: unknown): string[] {
  if (typeof input === 'string') return [input];
  if (!Array.isArray(input)) return [];
  if (input.every((x) => typeof x === 'number')) return [input.join(' ')];
  return input.map((x) => (typeof x === 'string' ? x : Array.isArray(x) ? x.join(' ') : ''));
}

/** `{object: list, data[{object: embedding, index, embedding}]}`; `encoding_format: base64` as float32 bytes. */
export function embeddingsOperation(flavor: Flavor, req: SimRequest): Operation | Reply {
  const bad = badBody(flavor, req, flavor === 'openai' ? ['model', 'input'] : ['input']);
  if (bad) return bad;
  const body = req.body as Obj;
  if (typeof body.model === 'string') req.model = body.model;
  const inputs = embeddingInputs(body.input);
  const dims = typeof body.dimensions === 'number' && body.dimensions > 0 ? Math.min(body.dimensions, 4096) : 0;
  const base64 = body.encoding_format === 'base64';
  // `sim-bow-*` models embed by words (similar texts are similar; 256 numbers keep unrelated words apart); the others
  // hash the whole text.
  const byWords = typeof body.model === 'string' && body.model.startsWith('sim-bow');
  const embedText = byWords ? embedWords : embed;
  const defaultDims = byWords ? BOW_DIMENSIONS : DEFAULT_DIMENSIONS;
  return (knobs) => {
    let tokens = 0;
    const data = inputs.map((text, index) => {
      tokens += countWords(text);
      const values = embedText(text, dims || defaultDims);
      return { object: 'embedding', index, embedding: base64 ? embeddingBase64(values) : values };
    });
    tokens = knobs.usage?.input_tokens ?? tokens;
    return jsonReply(
      200,
      {
        object: 'list',
        data,
        model: knobs.model ?? req.model,
        usage: { prompt_tokens: tokens, total_tokens: tokens },
      },
      successHeaders(flavor),
    );
  };
}

/** Cohere/Jina-style rerank (`/rerank`, used by OpenAI-compatible providers that offer it). */
function rerankOperation(req: SimRequest): Operation | Reply {
  const bad = badBody('openai', req, ['model', 'query', 'documents']);
  if (bad) return bad;
  const body = req.body as Obj;
  req.model = String(body.model);
  const query = String(body.query);
  const docs = Array.isArray(body.documents)
    ? body.documents.map((d) => (typeof d === 'string' ? d : isObj(d) && typeof d.text === 'string' ? d.text : ''))
    : [];
  const topN = typeof body.top_n === 'number' ? body.top_n : docs.length;
  return (knobs) => {
    const terms = query.toLowerCase().split(' ').filter(Boolean);
    const results = docs
      .map((text, index) => {
        const lower = text.toLowerCase();
        const hits = terms.filter((t) => lower.includes(t)).length;
        const result: Obj = { index, relevance_score: Math.round(((hits + 1) / (terms.length + 1)) * 1e4) / 1e4 };
        if (body.return_documents === true) result.document = { text };
        return result;
      })
      .sort(
        (x, y) =>
          (y.relevance_score as number) - (x.relevance_score as number) || (x.index as number) - (y.index as number),
      )
      .slice(0, topN);
    const tokens = knobs.usage?.input_tokens ?? countWords(query) + docs.reduce((n, d) => n + countWords(d), 0);
    return jsonReply(
      200,
      {
        id: newId('rerank-'),
        model: req.model,
        results,
        usage: { prompt_tokens: tokens, total_tokens: tokens },
        meta: { billed_units: { search_units: 1 } },
      },
      successHeaders('openai'),
    );
  };
}

const model = (id: string) => ({ id, object: 'model', created: 1715367049, owned_by: 'system' });

export function modelsOperation(flavor: Flavor): Operation {
  return () => jsonReply(200, { object: 'list', data: OPENAI_MODELS.map(model) }, successHeaders(flavor));
}

const NO_AUTH_PREFIX = '/noauth';

/**
 * `/openai`: OpenAI and every OpenAI-compatible provider. Operations are found by path suffix, so any base works:
 * `/openai/v1` (OpenAI, Groq-style), `/openai` (DeepSeek, Perplexity: no /v1), `/openai/beta/completions` (DeepSeek
 * FIM). Bearer auth is required, except under `/openai/noauth/...` (self-hosted vLLM, Ollama, SGLang without a key).
 */
export const openaiFamily: Family = {
  name: 'openai',

  authenticate(req) {
    req.key = bearer(req.headers);
    if (req.key !== undefined || req.sub.startsWith(NO_AUTH_PREFIX)) return undefined;
    return openaiError('openai', {
      status: 401,
      message:
        "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY), or as the password field (with blank username) if you're accessing the API from your browser and are prompted for a username.",
      code: null,
    });
  },

  route(req) {
    const sub = req.sub;
    if (req.method === 'POST') {
      if (sub.endsWith('/chat/completions')) return chatOperation('openai', req);
      if (sub.endsWith('/completions')) return completionsOperation('openai', req);
      if (sub.endsWith('/responses/input_tokens')) return inputTokensOperation('openai', req);
      if (sub.endsWith('/responses')) return responsesOperation('openai', req);
      if (sub.endsWith('/embeddings')) return embeddingsOperation('openai', req);
      if (sub.endsWith('/rerank')) return rerankOperation(req);
      if (sub.endsWith('/audio/speech')) return speechOperation('openai', req);
      if (sub.endsWith('/audio/transcriptions')) return transcriptionOperation('openai', req);
      if (sub.endsWith('/images/generations')) return imagesOperation('openai', req, 'generations');
      if (sub.endsWith('/images/edits')) return imagesOperation('openai', req, 'edits');
      if (sub.endsWith('/images/variations')) return imagesOperation('openai', req, 'variations');
      if (sub.endsWith('/ocr')) return ocrOperation(req);
    } else if (req.method === 'GET') {
      if (sub.endsWith('/models')) return modelsOperation('openai');
      const at = sub.lastIndexOf('/models/');
      if (at >= 0) {
        const id = decodeURIComponent(sub.slice(at + 8));
        return () => jsonReply(200, model(id), successHeaders('openai'));
      }
    }
    return openaiError('openai', { status: 404, message: `Invalid URL (${req.method} ${req.path})`, code: null });
  },

  error(_req, spec: ErrorSpec) {
    return openaiError('openai', spec);
  },
};
