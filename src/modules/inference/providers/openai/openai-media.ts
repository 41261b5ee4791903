import { MEDIA_ANSWER_KINDS, MULTIPART_KINDS } from '../../media/media-kinds.js';
import { encodeMultipartForm, formFieldsOf } from '../../media/multipart-form.js';
import type { InferenceKind, Json, UpstreamCall } from '../shared/provider-adapter.js';
import { copyWithout } from '../shared/wire-json.js';

const NOT_SENT: ReadonlySet<string> = new Set(['stream', 'stream_options']);
/** Several images of an edit go as `image[]` (gpt-image-1); one image as `image`. */
const BRACKETED: ReadonlySet<string> = new Set(['image']);

/**
 * The body and headers of an OpenAI media call (speech, transcription, images, OCR): JSON, or the multipart form
 * rebuilt from the canonical body for uploads. `headers` are the call's JSON headers, adjusted in place: a multipart
 * content-type, and `accept: *\/*` where the answer is audio or text.
 */
export function openAiMediaCall(
  kind: InferenceKind,
  body: Json,
  model: string,
  headers: Record<string, string>,
): Pick<UpstreamCall, 'headers' | 'body' | 'binaryBody'> {
  const out = copyWithout(body, NOT_SENT);
  out.model = model;
  if (MEDIA_ANSWER_KINDS.has(kind)) headers.accept = '*/*';
  if (!MULTIPART_KINDS.has(kind)) return { headers, body: JSON.stringify(out) };
  const form = encodeMultipartForm(formFieldsOf(out, BRACKETED));
  headers['content-type'] = form.contentType;
  return { headers, binaryBody: form.body };
}
