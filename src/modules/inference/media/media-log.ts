import type { Json } from '../providers/shared/provider-adapter.js';
import { isUploadedFile } from './uploaded-file.js';

/**
 * What a request log keeps of media requests and answers: text (the speech input, the prompt, a transcript, OCR
 * markdown), and of files, images and audio only a summary (name, type, size, count). Never bytes or base64.
 */

type MediaKind = 'speech' | 'transcription' | 'image_generation' | 'image_edit' | 'image_variation' | 'ocr';

/** Members of a media body that are its content (logged as `input`), not parameters. */
export const MEDIA_CONTENT_FIELDS: readonly string[] = ['file', 'image', 'mask', 'document'];

function fileSummary(value: unknown): unknown {
  if (isUploadedFile(value)) return value.toJSON();
  if (Array.isArray(value)) return value.map(fileSummary);
  return value;
}

/** A `data:` URL as its media type and length; any other URL as is. */
function urlSummary(url: unknown): unknown {
  if (typeof url !== 'string' || !url.startsWith('data:')) return url;
  return { data_url: url.slice(5, url.indexOf(';') > 0 ? url.indexOf(';') : 5), chars: url.length };
}

function documentSummary(document: unknown): unknown {
  if (typeof document !== 'object' || document === null) return document;
  const d = document as Json;
  return { ...d, document_url: urlSummary(d.document_url), image_url: urlSummary(d.image_url) };
}

export function mediaInputOf(kind: MediaKind, body: Json): { input: unknown; summary: string } {
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  switch (kind) {
    case 'speech':
      return { input: body.input, summary: text(body.input) };
    case 'image_generation':
      return { input: body.prompt, summary: text(body.prompt) };
    case 'transcription':
    case 'image_variation': {
      const field = kind === 'transcription' ? 'file' : 'image';
      const file = body[field];
      return { input: { [field]: fileSummary(file) }, summary: isUploadedFile(file) ? file.filename : '' };
    }
    case 'image_edit':
      return {
        input: { prompt: body.prompt, image: fileSummary(body.image), mask: fileSummary(body.mask) },
        summary: text(body.prompt),
      };
    case 'ocr':
      return { input: { document: documentSummary(body.document) }, summary: '' };
  }
}

/** Images as their count and, per image, its URL or the size of its base64 data. */
function imagesSummary(body: Json): Json {
  const data = Array.isArray(body.data) ? (body.data as Json[]) : [];
  const images = data.map((image) => {
    const out: Json = {};
    if (typeof image.url === 'string') out.url = urlSummary(image.url);
    if (typeof image.b64_json === 'string') out.b64_json_chars = image.b64_json.length;
    if (typeof image.revised_prompt === 'string') out.revised_prompt = image.revised_prompt;
    return out;
  });
  return { object: 'images_summary', count: data.length, images };
}

export function mediaOutputOf(kind: MediaKind, body: Json): unknown {
  switch (kind) {
    case 'speech':
      return body;
    case 'transcription':
      return typeof body.text === 'string' ? { text: body.text } : body;
    case 'image_generation':
    case 'image_edit':
    case 'image_variation':
      return imagesSummary(body);
    case 'ocr': {
      const pages = Array.isArray(body.pages) ? (body.pages as Json[]) : [];
      return { object: 'ocr_summary', pages: pages.map((p) => ({ index: p.index, markdown: p.markdown })) };
    }
  }
}
