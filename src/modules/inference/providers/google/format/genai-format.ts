import { GatewayException } from '../../../../../core/errors/gateway.exception.js';
import type { Json } from '../../shared/provider-adapter.js';
import { isJsonObject } from '../../shared/wire-json.js';
import { canonicalModel } from '../../../formats/format-routes.js';
import type { NativeFormat, NativeOperation } from '../../../formats/native-format.js';
import { renderGenaiError } from './genai-error.js';
import { genaiCountTokens, genaiGenerateContent } from './genai-request.js';
import { genaiEmbeddings, genaiResponse, genaiTokenCount } from './genai-response.js';
import { GenaiStreamEncoder } from './genai-stream.js';

/**
 * The `/genai` set (Gemini API paths, `@google/genai` pointed at `<gateway>/genai`): a bare model is Gemini's, any
 * provider-prefixed one (`openai/gpt-4o`, raw or URL-encoded in the path) goes to that provider, converted both ways.
 */
export const GENAI_FORMAT: NativeFormat = {
  name: 'genai',
  renderError: renderGenaiError,
};

export const GENAI_ACTIONS = [
  'generateContent',
  'streamGenerateContent',
  'embedContent',
  'batchEmbedContents',
  'countTokens',
] as const;
export type GenaiAction = (typeof GENAI_ACTIONS)[number];

/** `<model>:<action>`, the path after `models/` (its `/` and `%2F` already decoded by the router). */
export function parseModelAction(path: string): { model: string; action: GenaiAction } {
  const colon = path.lastIndexOf(':');
  const action = path.slice(colon + 1);
  if (colon <= 0 || !(GENAI_ACTIONS as readonly string[]).includes(action))
    throw new GatewayException(
      404,
      'route_not_found',
      `No Gemini method ${colon < 0 ? '' : action}; use ${GENAI_ACTIONS.join(', ')}`,
    );
  return { model: path.slice(0, colon), action: action as GenaiAction };
}

// The model is the documented `path` parameter (`models/{path}`), the field a 400 names.
const modelOf = (model: string) => canonicalModel(model, GENAI_FORMAT.name, 'path');

/** generateContent, or streamGenerateContent (`sse`: `alt=sse` asked for SSE events instead of a JSON array). */
function generateOperation(model: string, stream: boolean, sse: boolean): NativeOperation {
  return {
    kind: 'chat',
    toCanonical(body) {
      const canonical: Json = { model: modelOf(model), ...genaiGenerateContent(body) };
      if (stream) {
        canonical.stream = true;
        canonical.stream_options = { include_usage: true };
      }
      return { body: canonical, stream };
    },
    fromCanonical: (answer, usage) => genaiResponse(answer, usage),
    streamEncoder: () => new GenaiStreamEncoder(sse),
  };
}

/** One Content's text parts as one input (Gemini embeds a multi-part content as one text). */
function embeddingText(content: unknown, param: string): string {
  if (!isJsonObject(content) || !Array.isArray(content.parts) || content.parts.length === 0)
    throw GatewayException.validation(param, 'content must be a Content object with text parts');
  return (content.parts as unknown[])
    .map((part, j) => {
      if (!isJsonObject(part) || typeof part.text !== 'string')
        throw GatewayException.validation(`${param}.parts[${j}]`, 'embeddings take text parts only');
      return part.text;
    })
    .join('\n');
}

const dimensionsOf = (request: Json) =>
  typeof request.outputDimensionality === 'number' ? { dimensions: request.outputDimensionality } : {};

function embedOperation(model: string, batch: boolean): NativeOperation {
  return {
    kind: 'embeddings',
    toCanonical(body) {
      if (!isJsonObject(body)) throw GatewayException.validation('body', 'The request body must be a JSON object');
      if (!batch) {
        const input = embeddingText(body.content, 'content');
        return { body: { model: modelOf(model), input, ...dimensionsOf(body) }, stream: false };
      }
      if (!Array.isArray(body.requests) || body.requests.length === 0)
        throw GatewayException.validation('requests', 'requests must be a non-empty array of embedContent requests');
      const requests = body.requests as unknown[];
      const input = requests.map((r, i) => embeddingText(isJsonObject(r) ? r.content : r, `requests[${i}].content`));
      const first = isJsonObject(requests[0]) ? requests[0] : {};
      return { body: { model: modelOf(model), input, ...dimensionsOf(first) }, stream: false };
    },
    fromCanonical: (answer) => genaiEmbeddings(answer, batch),
  };
}

function countTokensOperation(model: string): NativeOperation {
  return {
    kind: 'count_tokens',
    toCanonical: (body) => ({ body: { model: modelOf(model), ...genaiCountTokens(body) }, stream: false }),
    fromCanonical: (answer) => genaiTokenCount(answer),
  };
}

/** The operation of one request (it carries the model and the stream framing of its path and query). */
export function genaiOperation(model: string, action: GenaiAction, sse: boolean): NativeOperation {
  switch (action) {
    case 'generateContent':
      return generateOperation(model, false, sse);
    case 'streamGenerateContent':
      return generateOperation(model, true, sse);
    case 'embedContent':
      return embedOperation(model, false);
    case 'batchEmbedContents':
      return embedOperation(model, true);
    case 'countTokens':
      return countTokensOperation(model);
  }
}
