import { GatewayException } from '../../../../../core/errors/gateway.exception.js';
import type { Json } from '../../shared/provider-adapter.js';
import { isJsonObject, parseJson } from '../../shared/wire-json.js';

/**
 * InvokeModel's body is the model's own. The Anthropic Claude body (Anthropic Messages without `model`, with
 * `anthropic_version: "bedrock-2023-05-31"`) is served through the `/anthropic` format's conversions; other
 * model-native bodies (Titan, Llama, Mistral, Cohere on Bedrock) are refused with a ValidationException naming the body.
 */

const invalid = (param: string, message: string) => GatewayException.validation(param, message);

/** The body as JSON: the SDK sends the bytes the caller gave, typed `application/json` or not at all. */
export function invokeBodyOf(raw: unknown): Json {
  let body = raw;
  if (Buffer.isBuffer(raw)) {
    try {
      body = parseJson(raw.toString('utf8'));
    } catch {
      throw invalid('body', 'The InvokeModel body must be JSON');
    }
  }
  if (!isJsonObject(body)) throw invalid('body', 'The InvokeModel body must be a JSON object');
  if (typeof body.anthropic_version !== 'string') {
    throw invalid(
      'body',
      'InvokeModel accepts the Anthropic Claude body (anthropic_version "bedrock-2023-05-31"); for other models use Converse',
    );
  }
  return body;
}

/**
 * The Claude body as an Anthropic Messages request for `model` (the path's), streaming as the path says: what the
 * `/anthropic` format converts.
 */
export function claudeAsMessages(raw: unknown, model: string, stream: boolean): Json {
  const { anthropic_version: _version, ...messages } = invokeBodyOf(raw);
  return { ...messages, model, stream };
}
