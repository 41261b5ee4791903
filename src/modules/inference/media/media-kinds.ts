import type { InferenceKind } from '../providers/shared/provider-adapter.js';

/** Kinds whose request is a multipart form with files (the canonical body holds `UploadedFile`s). */
export const MULTIPART_KINDS: ReadonlySet<InferenceKind> = new Set(['transcription', 'image_edit', 'image_variation']);

/**
 * Kinds whose answer may be something else than JSON (audio bytes; a transcript as text, SRT or VTT; an image as
 * bytes: Hugging Face's text-to-image).
 */
export const MEDIA_ANSWER_KINDS: ReadonlySet<InferenceKind> = new Set(['speech', 'transcription', 'image_generation']);

/** The media kinds, none of which streams through the gateway. */
export const MEDIA_KINDS: ReadonlySet<InferenceKind> = new Set([
  'speech',
  'transcription',
  'image_generation',
  'image_edit',
  'image_variation',
  'ocr',
]);
