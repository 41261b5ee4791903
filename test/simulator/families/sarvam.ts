import type { ErrorSpec, Family, Reply, SimRequest } from '../family.js';
import { isObj, jsonReply } from '../family.js';
import { isSimFile } from '../multipart.js';
import { openaiFamily } from './openai.js';
import { transcriptOf } from './openai-media.js';

const sarvamError = (status: number, code: string, message: string): Reply =>
  jsonReply(status, { error: { message, code, request_id: `sim_${Date.now()}` } });

/** Deterministic "audio" per codec: the codec's real signature, then `SIMAUDIO:<speaker>:<text>`. */
function simCodecAudio(codec: unknown, text: string): Buffer {
  const payload = Buffer.from(`SIMAUDIO:${text}`);
  if (codec === 'mp3') return Buffer.concat([Buffer.from('ID3\u0004\u0000'), payload]);
  if (codec === 'flac') return Buffer.concat([Buffer.from('fLaC'), payload]);
  const header = Buffer.alloc(12);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(payload.length + 4, 4);
  header.write('WAVE', 8, 'latin1');
  return Buffer.concat([header, payload]);
}

/**
 * `/sarvam`: Sarvam AI. `/v1/chat/completions` is OpenAI-compatible (Bearer or `api-subscription-key`);
 * `POST /text-to-speech` `{text | inputs[], target_language_code, speaker, model, output_audio_codec?}` answers
 * `{request_id, audios: [base64]}`; `POST /speech-to-text` (multipart `file`, `model`, `language_code`) answers
 * `{request_id, transcript, timestamps, diarized_transcript, language_code}`. Native routes need
 * `api-subscription-key`; errors are `{error: {message, code, request_id}}`.
 */
export const sarvamFamily: Family = {
  name: 'sarvam',

  authenticate(req: SimRequest) {
    const key = req.headers['api-subscription-key'];
    if (typeof key === 'string' && key !== '') {
      req.key = key;
      return undefined;
    }
    if (req.sub.startsWith('/v1/')) return openaiFamily.authenticate(req);
    return sarvamError(403, 'invalid_api_key_error', 'Invalid API key or subscription key');
  },

  route(req: SimRequest) {
    if (req.sub.startsWith('/v1/')) return openaiFamily.route(req);
    if (req.method !== 'POST') return sarvamError(404, 'not_found_error', 'Not Found');
    const body = isObj(req.body) ? req.body : {};
    if (req.sub === '/text-to-speech') {
      const texts = typeof body.text === 'string' ? [body.text] : Array.isArray(body.inputs) ? body.inputs : [];
      if (texts.length === 0 || !texts.every((t) => typeof t === 'string')) {
        return sarvamError(400, 'invalid_request_error', 'text is required');
      }
      if (typeof body.target_language_code !== 'string') {
        return sarvamError(400, 'invalid_request_error', 'target_language_code is required');
      }
      req.model = typeof body.model === 'string' ? body.model : 'bulbul:v2';
      const speaker = typeof body.speaker === 'string' ? body.speaker : 'anushka';
      return () =>
        jsonReply(200, {
          request_id: `sim_${Date.now()}`,
          audios: texts.map((t) => simCodecAudio(body.output_audio_codec, `${speaker}:${t}`).toString('base64')),
        });
    }
    if (req.sub === '/speech-to-text') {
      if (!isSimFile(body.file)) return sarvamError(400, 'invalid_request_error', 'file is required');
      req.model = typeof body.model === 'string' ? body.model : 'saarika:v2.5';
      const file = body.file;
      const detected = body.language_code === undefined || body.language_code === 'unknown';
      return () =>
        jsonReply(200, {
          request_id: `sim_${Date.now()}`,
          transcript: transcriptOf(file),
          timestamps: null,
          diarized_transcript: null,
          language_code: detected ? 'hi-IN' : body.language_code,
        });
    }
    return sarvamError(404, 'not_found_error', 'Not Found');
  },

  error(req: SimRequest, spec: ErrorSpec) {
    if (req.sub.startsWith('/v1/')) return openaiFamily.error(req, spec);
    const status = spec.overloaded ? 503 : spec.status;
    const code =
      spec.code ??
      (status === 429
        ? 'rate_limit_exceeded_error'
        : status >= 500
          ? 'internal_server_error'
          : 'invalid_request_error');
    return sarvamError(status, code, spec.message ?? `Request failed with status ${status}`);
  },
};
