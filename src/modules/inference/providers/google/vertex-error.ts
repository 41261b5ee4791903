import { parseAnthropicError } from '../anthropic/anthropic-error.js';
import { parseGeminiError } from './gemini-error.js';
import type { ProviderError } from '../shared/provider-adapter.js';
import { isJsonObject, parseJson } from '../shared/wire-json.js';

/**
 * A Vertex error body. The platform itself (auth, quota, routing) answers in Google's `{error:{code, message,
 * status, details}}` whatever the model; Anthropic's models relay their own `{type:"error", error:{type, message}}`
 * (an overload, a bad request). The body says which; Google's parser also reads OpenAI-shaped bodies of the MaaS
 * endpoint (`error.message`) and non-JSON text.
 */
export function parseVertexError(
  status: number,
  headers: Record<string, string | string[] | undefined>,
  body: string,
): ProviderError {
  const parsed = parseJson(body);
  if (isJsonObject(parsed) && parsed.type === 'error') return parseAnthropicError(status, headers, body);
  const error = parseGeminiError(status, headers, body);
  return error.message.startsWith('gemini answered') ? { ...error, message: `vertex answered HTTP ${status}` } : error;
}
