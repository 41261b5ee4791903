import type { InferenceKind } from '../providers/shared/provider-adapter.js';

/** One `/v1/async/<type>` route: the synchronous route it replays, and the body it takes. */
export interface AsyncJobType {
  kind: InferenceKind;
  /** The synchronous route, e.g. `/v1/chat/completions`. */
  path: string;
  /** A multipart upload (transcription audio, the image to edit), as on the synchronous route. */
  multipart: boolean;
  operationId: string;
  summary: string;
}

/**
 * Every inference type served asynchronously: all but batches, files and containers (decisions.md "Async inference"),
 * and count_tokens, which is answered from the request alone.
 */
export const ASYNC_JOB_TYPES: Readonly<Record<string, AsyncJobType>> = {
  'chat/completions': job('chat/completions', 'chat', 'ChatCompletion', 'a chat completion'),
  completions: job('completions', 'completions', 'Completion', 'a text completion'),
  responses: job('responses', 'responses', 'Response', 'a Responses API request'),
  embeddings: job('embeddings', 'embeddings', 'Embeddings', 'embeddings'),
  rerank: job('rerank', 'rerank', 'Rerank', 'a rerank'),
  'audio/speech': job(
    'audio/speech',
    'speech',
    'Speech',
    'text to speech (the audio comes back base64 in `result.data`)',
  ),
  'audio/transcriptions': job(
    'audio/transcriptions',
    'transcription',
    'Transcription',
    'a transcription (multipart upload)',
    true,
  ),
  'images/generations': job('images/generations', 'image_generation', 'Image', 'an image generation'),
  'images/edits': job('images/edits', 'image_edit', 'ImageEdit', 'an image edit (multipart upload)', true),
  'images/variations': job(
    'images/variations',
    'image_variation',
    'ImageVariation',
    'an image variation (multipart upload)',
    true,
  ),
  ocr: job('ocr', 'ocr', 'Ocr', 'a document OCR'),
};

function job(type: string, kind: InferenceKind, operation: string, what: string, multipart = false): AsyncJobType {
  return { kind, path: `/v1/${type}`, multipart, operationId: operation, summary: what };
}
