import { GatewayException } from '../../../core/errors/gateway.exception.js';
import type { InferenceKind, Json, MediaAnswer, ParsedResponse } from '../providers/shared/provider-adapter.js';

/** Whether a content-type is JSON (`application/json`, `application/problem+json`, with parameters or not). */
export function isJsonType(contentType: string): boolean {
  const type = contentType.split(';', 1)[0]!.trim().toLowerCase();
  return type === 'application/json' || type.endsWith('+json');
}

/**
 * A media answer read the provider's way: JSON goes through `parseJson`; anything else (audio, a transcript as
 * text, SRT or VTT) is relayed as bytes, and the log keeps a summary of it (a text transcript's text; of audio, its
 * type and size only).
 */
export function parseMediaAnswer(
  kind: InferenceKind,
  answer: MediaAnswer,
  parseJson: (body: Json) => ParsedResponse,
): ParsedResponse {
  if (isJsonType(answer.contentType)) {
    let body: unknown;
    try {
      body = JSON.parse(answer.bytes.toString('utf8'));
    } catch {
      body = undefined;
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw new GatewayException(502, 'upstream_error', `The provider's ${kind} answer is not a JSON object`, {
        reason: 'provider_server_error',
      });
    }
    return parseJson(body as Json);
  }
  // A transcript (text, SRT, VTT) is logged as its text; speech sent as events (`stream_format: sse`) carries
  // base64 audio, so it is summarised like audio.
  const textual = answer.contentType.startsWith('text/') && !answer.contentType.startsWith('text/event-stream');
  const summary: Json = textual
    ? { object: 'text', content_type: answer.contentType, text: answer.bytes.toString('utf8') }
    : { object: 'binary', content_type: answer.contentType, bytes: answer.bytes.length };
  return { body: summary, binary: answer };
}
