import { imagesOperation, speechOperation, transcriptionOperation } from './openai-media.js';
import { bearer, type ErrorSpec, type Family, jsonReply, type SimRequest } from '../family.js';
import { anthropicFamily } from './anthropic.js';
import { embeddingsOperation, OPENAI_MODELS } from './openai.js';
import { chatOperation, completionsOperation } from './openai-chat.js';
import { responsesOperation } from './openai-responses.js';
import { openaiError, successHeaders } from './openai-wire.js';

const DEPLOYMENTS = '/openai/deployments/';
const V1 = '/openai/v1/';

/** Claude deployments on Azure AI Foundry speak Anthropic Messages under `{endpoint}/anthropic/v1/messages`. */
const isClaude = (req: SimRequest) => req.sub.startsWith('/anthropic/');

function azureModels() {
  return () =>
    jsonReply(
      200,
      {
        object: 'list',
        data: OPENAI_MODELS.map((id) => ({
          id,
          object: 'model',
          created_at: 1715367049,
          status: 'succeeded',
          lifecycle_status: 'generally-available',
          capabilities: { chat_completion: !id.includes('embedding'), embeddings: id.includes('embedding') },
        })),
      },
      successHeaders('azure'),
    );
}

/**
 * `/azure` is an Azure OpenAI endpoint: `/openai/deployments/{deployment}/{chat/completions|completions|embeddings}`
 * and `/openai/models` need `?api-version=`; the v1 surface (`/openai/v1/responses|chat/completions|embeddings|models`)
 * does not. Auth is `api-key` (or an Entra `Authorization: Bearer`). Payloads are OpenAI's, with Azure's content
 * filter annotations; errors are `{error: {code, message}}`.
 */
export const azureFamily: Family = {
  name: 'azure',

  authenticate(req) {
    if (isClaude(req)) return anthropicFamily.authenticate(req);
    const apiKey = req.headers['api-key'];
    req.key = (typeof apiKey === 'string' && apiKey !== '' ? apiKey : undefined) ?? bearer(req.headers);
    if (req.key !== undefined) return undefined;
    return openaiError('azure', {
      status: 401,
      message:
        'Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource.',
    });
  },

  route(req) {
    if (isClaude(req)) return anthropicFamily.route(req);
    const sub = req.sub;
    const notFound = openaiError('azure', { status: 404, message: 'Resource not found', code: '404' });
    if (sub.startsWith(V1)) {
      const op = sub.slice(V1.length);
      if (req.method === 'POST' && op === 'responses') return responsesOperation('azure', req);
      if (req.method === 'POST' && op === 'chat/completions') return chatOperation('azure', req);
      if (req.method === 'POST' && op === 'embeddings') return embeddingsOperation('azure', req);
      if (req.method === 'GET' && op === 'models') return azureModels();
      return notFound;
    }
    if (!req.query.get('api-version')) {
      return openaiError('azure', {
        status: 400,
        message: 'Missing required query parameter: api-version.',
        code: 'MissingApiVersionParameter',
      });
    }
    if (req.method === 'GET' && sub === '/openai/models') return azureModels();
    if (req.method === 'POST' && sub === '/openai/responses') return responsesOperation('azure', req);
    if (req.method !== 'POST' || !sub.startsWith(DEPLOYMENTS)) return notFound;
    const rest = sub.slice(DEPLOYMENTS.length);
    const slash = rest.indexOf('/');
    if (slash <= 0) return notFound;
    req.model = decodeURIComponent(rest.slice(0, slash));
    switch (rest.slice(slash + 1)) {
      case 'chat/completions':
        return chatOperation('azure', req);
      case 'completions':
        return completionsOperation('azure', req);
      case 'embeddings':
        return embeddingsOperation('azure', req);
      case 'audio/speech':
        return speechOperation('azure', req);
      case 'audio/transcriptions':
        return transcriptionOperation('azure', req);
      case 'images/generations':
        return imagesOperation('azure', req, 'generations');
      case 'images/edits':
        return imagesOperation('azure', req, 'edits');
      default:
        return notFound;
    }
  },

  error(req, spec: ErrorSpec) {
    return isClaude(req) ? anthropicFamily.error(req, spec) : openaiError('azure', spec);
  },
};
