import { GatewayException } from '../../../core/errors/gateway.exception.js';
import type { InferenceKind, Json } from '../providers/shared/provider-adapter.js';
import { isUploadedFile } from './uploaded-file.js';

type MediaKind = 'speech' | 'transcription' | 'image_generation' | 'image_edit' | 'image_variation' | 'ocr';

/** The `response_format` values each kind accepts (OpenAI's lists; a provider maps them to its own). */
const RESPONSE_FORMATS: Partial<Record<InferenceKind, readonly string[]>> = {
  speech: ['mp3', 'opus', 'aac', 'flac', 'wav', 'pcm'],
  transcription: ['json', 'text', 'srt', 'verbose_json', 'vtt', 'diarized_json'],
  image_generation: ['url', 'b64_json'],
  image_edit: ['url', 'b64_json'],
  image_variation: ['url', 'b64_json'],
};

/** Speech's `stream_format`: the audio bytes (default), or `sse` events carrying base64 audio deltas. */
const SPEECH_STREAM_FORMATS: readonly string[] = ['audio', 'sse'];

/** Whether a media request asks for a streamed answer (speech with `stream_format: "sse"`). */
export function streamsMedia(kind: InferenceKind, body: Json): boolean {
  return kind === 'speech' && body.stream_format === 'sse';
}

const OCR_DOCUMENT_TYPES: ReadonlySet<string> = new Set(['document_url', 'image_url']);

function requireText(body: Json, field: string): void {
  const value = body[field];
  if (typeof value !== 'string' || value === '') {
    throw GatewayException.validation(field, `${field} must be a non-empty string`);
  }
}

/** The upload field: one file, or (image edits) a non-empty list of files. */
function requireFile(body: Json, field: string, several: boolean): void {
  const value = body[field];
  const ok =
    isUploadedFile(value) || (several && Array.isArray(value) && value.length > 0 && value.every(isUploadedFile));
  if (!ok) throw GatewayException.validation(field, `${field} must be a file sent as multipart/form-data`);
}

/** The fields of a media request the gateway reads or that no provider could answer without. */
export function validateMediaBody(kind: MediaKind, body: Json): void {
  switch (kind) {
    case 'speech':
      requireText(body, 'input');
      if (body.stream_format !== undefined && !SPEECH_STREAM_FORMATS.includes(body.stream_format as string)) {
        throw GatewayException.validation('stream_format', 'stream_format must be audio or sse');
      }
      break;
    case 'transcription':
      requireFile(body, 'file', false);
      break;
    case 'image_generation':
      requireText(body, 'prompt');
      break;
    case 'image_edit':
      requireFile(body, 'image', true);
      requireText(body, 'prompt');
      break;
    case 'image_variation':
      requireFile(body, 'image', false);
      break;
    case 'ocr': {
      const document = body.document as Json | undefined;
      if (typeof document !== 'object' || document === null || !OCR_DOCUMENT_TYPES.has(String(document.type))) {
        throw GatewayException.validation('document', 'document must be { type: document_url | image_url, ... }');
      }
      break;
    }
  }
  const formats = RESPONSE_FORMATS[kind];
  const format = body.response_format;
  if (formats && format !== undefined && !(typeof format === 'string' && formats.includes(format))) {
    throw GatewayException.validation('response_format', `response_format must be one of ${formats.join(', ')}`);
  }
}
