import { countWords } from '../answer.js';
import { bearer, isObj, jsonReply, type Family, type Operation, type Reply, type SimRequest } from '../family.js';
import { isSimFile } from '../multipart.js';
import { openaiFamily } from './openai.js';
import { transcriptOf } from './openai-media.js';
import { openaiError, successHeaders } from './openai-wire.js';

type Obj = Record<string, unknown>;

/** Multipart fields Mistral's transcription takes; anything else is refused as its validation layer does. */
const TRANSCRIPTION_FIELDS: ReadonlySet<string> = new Set([
  'model',
  'file',
  'file_url',
  'file_id',
  'language',
  'temperature',
  'stream',
  'timestamp_granularities',
  'diarize',
  'context_bias',
]);

/** Mistral's 422: `{detail: [{type, loc, msg}]}`. */
function unprocessable(field: string, msg: string, type: string): Reply {
  return jsonReply(422, { detail: [{ type, loc: ['body', field], msg, input: null }] });
}

/**
 * `POST /v1/audio/transcriptions` as Mistral answers it (Voxtral): multipart `model`, `file`, optional `language`,
 * `timestamp_granularities` (`segment` fills `segments`); no `response_format` (JSON only). The answer is
 * `{model, text, language, segments, usage: {prompt_audio_seconds, prompt_tokens, completion_tokens, total_tokens}}`
 * where `total_tokens` also counts the audio tokens (one per 10 bytes here) that no other member names.
 */
function transcriptionOperation(req: SimRequest): Operation | Reply {
  const body = isObj(req.body) ? req.body : {};
  for (const name of Object.keys(body)) {
    if (!TRANSCRIPTION_FIELDS.has(name))
      return unprocessable(name, 'Extra inputs are not permitted', 'extra_forbidden');
  }
  if (typeof body.model !== 'string') return unprocessable('model', 'Field required', 'missing');
  if (!isSimFile(body.file)) return unprocessable('file', 'Field required', 'missing');
  req.model = body.model;
  const file = body.file;
  const text = transcriptOf(file);
  const granularities = Array.isArray(body.timestamp_granularities)
    ? body.timestamp_granularities
    : [body.timestamp_granularities];
  const segments = granularities.includes('segment') ? [{ text, start: 0, end: 2, type: 'transcription_segment' }] : [];
  const audio = Math.ceil(file.size / 10);
  const completion = countWords(text);
  const prompt = 4;
  return () =>
    jsonReply(
      200,
      {
        model: body.model,
        text,
        language: typeof body.language === 'string' ? body.language : null,
        segments,
        usage: {
          prompt_audio_seconds: 2,
          prompt_tokens: prompt,
          total_tokens: prompt + audio + completion,
          completion_tokens: completion,
        } satisfies Obj,
      },
      successHeaders('openai'),
    );
}

/**
 * `/mistral`: Mistral's API (`${url}/mistral/v1`), Bearer. Transcriptions are Mistral's own (above); chat,
 * embeddings and OCR follow the OpenAI family's rules, which Mistral's OpenAI-compatible surface shares.
 */
export const mistralFamily: Family = {
  name: 'mistral',

  authenticate(req) {
    req.key = bearer(req.headers);
    if (req.key !== undefined) return undefined;
    return openaiError('openai', { status: 401, message: 'Unauthorized', code: null });
  },

  route(req) {
    if (req.method === 'POST' && req.sub.endsWith('/audio/transcriptions')) return transcriptionOperation(req);
    return openaiFamily.route(req);
  },

  error(req, spec) {
    return openaiFamily.error(req, spec);
  },
};
