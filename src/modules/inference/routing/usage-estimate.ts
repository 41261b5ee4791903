import type { InferenceKind, Json } from '../providers/shared/provider-adapter.js';

/** Output tokens assumed for a generating request that sets no limit of its own. */
export const DEFAULT_OUTPUT_TOKENS = 1024;

/**
 * Kinds whose answer is not generated tokens (nothing to bill on the output side): speech is audio priced per
 * character, OCR per page. Transcripts and images (gpt-image-1) report output tokens.
 */
const NO_OUTPUT: ReadonlySet<InferenceKind> = new Set(['embeddings', 'rerank', 'count_tokens', 'speech', 'ocr']);

/**
 * What a request may use, before it is sent (for the reservations of budgets and token limits): input, a quarter of
 * the body's JSON length (about a token per four characters, generous for the JSON around the text); output, the
 * caller's own cap (`max_tokens`, `max_completion_tokens`, `max_output_tokens`) or DEFAULT_OUTPUT_TOKENS. The real
 * usage settles the reservation after the answer.
 */
export function estimateTokens(kind: InferenceKind, body: Json): { input: number; output: number } {
  const input = Math.ceil(JSON.stringify(body).length / 4);
  if (NO_OUTPUT.has(kind)) return { input, output: 0 };
  const cap = body.max_tokens ?? body.max_completion_tokens ?? body.max_output_tokens;
  const output = typeof cap === 'number' && Number.isFinite(cap) && cap >= 0 ? Math.ceil(cap) : DEFAULT_OUTPUT_TOKENS;
  return { input, output };
}
