import { hintHeaders, isObj, jsonReply, type ErrorSpec, type Family, type Reply, type SimRequest } from '../family.js';
import { isSimFile } from '../multipart.js';
import { binaryReply, simAudio, transcriptOf } from './openai-media.js';

const TTS = '/v1/text-to-speech/';

/** ElevenLabs' `output_format` prefixes and their content-types. */
const OUTPUT_TYPES: ReadonlyArray<readonly [string, string]> = [
  ['mp3_', 'audio/mpeg'],
  ['pcm_', 'audio/pcm'],
  ['opus_', 'audio/opus'],
  ['wav_', 'audio/wav'],
  ['ulaw_', 'audio/basic'],
];

/** `GET /v1/models`: a bare JSON array, as ElevenLabs answers it. */
const MODELS = [
  ['eleven_multilingual_v2', 'Eleven Multilingual v2', true],
  ['eleven_flash_v2_5', 'Eleven Flash v2.5', true],
  ['scribe_v1', 'Scribe v1', false],
].map(([model_id, name, tts]) => ({
  model_id,
  name,
  can_be_finetuned: tts,
  can_do_text_to_speech: tts,
  can_do_voice_conversion: false,
  token_cost_factor: 1,
  description: `${String(name)} (simulated)`,
  languages: [{ language_id: 'en', name: 'English' }],
}));

function detailError(status: number, code: string, message: string, headers: Record<string, string> = {}): Reply {
  return jsonReply(status, { detail: { status: code, message } }, headers);
}

/** FastAPI's 422 for a missing field: `{detail: [{loc: ["body", field], msg, type}]}`. */
function missing(field: string): Reply {
  return jsonReply(422, { detail: [{ loc: ['body', field], msg: 'Field required', type: 'missing' }] });
}

/**
 * `/elevenlabs`: the ElevenLabs API. `POST /v1/text-to-speech/{voice_id}?output_format=` with
 * `{text, model_id, voice_settings}` answers audio bytes; `POST /v1/speech-to-text` (multipart `model_id`, `file`)
 * answers `{language_code, language_probability, text, words}`; `GET /v1/models` answers a bare array of
 * `{model_id, name, …}`. Auth is the `xi-api-key` header; errors are
 * `{detail: {status, message}}` (422: FastAPI's list).
 */
export const elevenlabsFamily: Family = {
  name: 'elevenlabs',

  authenticate(req: SimRequest) {
    const key = req.headers['xi-api-key'];
    req.key = typeof key === 'string' && key !== '' ? key : undefined;
    if (req.key !== undefined) return undefined;
    return detailError(401, 'invalid_api_key', 'Invalid API key');
  },

  route(req: SimRequest) {
    if (req.method === 'GET' && req.sub === '/v1/models') return () => jsonReply(200, MODELS);
    if (req.method !== 'POST') return detailError(404, 'not_found', 'Not Found');
    const body = isObj(req.body) ? req.body : {};
    if (req.sub.startsWith(TTS)) {
      if (typeof body.text !== 'string') return missing('text');
      req.model = typeof body.model_id === 'string' ? body.model_id : 'eleven_multilingual_v2';
      const format = req.query.get('output_format') ?? 'mp3_44100_128';
      const type = OUTPUT_TYPES.find(([prefix]) => format.startsWith(prefix))?.[1];
      if (!type) return detailError(400, 'invalid_output_format', `Invalid output format ${format}`);
      const voice = decodeURIComponent(req.sub.slice(TTS.length));
      return () => binaryReply(type, simAudio(`${voice}:${body.text as string}`), {});
    }
    if (req.sub === '/v1/speech-to-text') {
      if (!isSimFile(body.file)) return missing('file');
      if (typeof body.model_id !== 'string') return missing('model_id');
      req.model = body.model_id;
      const text = transcriptOf(body.file);
      const words = text
        .split(' ')
        .map((word, i) => ({ text: word, start: i * 0.5, end: i * 0.5 + 0.4, type: 'word' }));
      return () =>
        jsonReply(200, {
          language_code: typeof body.language_code === 'string' ? body.language_code : 'eng',
          language_probability: 0.98,
          text,
          words,
        });
    }
    return detailError(404, 'not_found', 'Not Found');
  },

  error(_req: SimRequest, spec: ErrorSpec) {
    const status = spec.overloaded ? 503 : spec.status;
    const headers = hintHeaders(spec.hint ?? 'retry-after-seconds', spec.hintMs ?? 1000);
    const code =
      spec.code ?? (status === 429 ? 'too_many_concurrent_requests' : status >= 500 ? 'internal_error' : 'error');
    return detailError(status, code, spec.message ?? `Request failed with status ${status}`, headers);
  },
};
