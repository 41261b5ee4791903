import { GatewayException } from '../../../../core/errors/gateway.exception.js';
import type { Json, MediaAnswer } from '../shared/provider-adapter.js';
import { asArray, asString } from '../shared/wire-json.js';

/** The language spoken or transcribed when the request names none (Sarvam serves Indian languages and en-IN). */
export const SARVAM_DEFAULT_LANGUAGE = 'en-IN';

/** OpenAI speech `response_format` → Sarvam `output_audio_codec` (wav is Sarvam's default: no codec sent). */
const AUDIO_CODECS: Readonly<Record<string, string | undefined>> = {
  wav: undefined,
  mp3: 'mp3',
  opus: 'opus',
  flac: 'flac',
  aac: 'aac',
  pcm: 'linear16',
};

/** OpenAI speech members sent under Sarvam's names (or not at all). */
const SPEECH_HANDLED: ReadonlySet<string> = new Set([
  'model',
  'input',
  'voice',
  'response_format',
  'speed',
  'language',
  'instructions',
  'stream_format',
]);

/** OpenAI transcription members sent under Sarvam's names (or not at all). */
const TRANSCRIPTION_HANDLED: ReadonlySet<string> = new Set([
  'model',
  'file',
  'language',
  'response_format',
  'prompt',
  'temperature',
  'timestamp_granularities',
  'include',
  'stream',
]);

/**
 * `POST /text-to-speech` `{text, target_language_code, speaker, model}`: OpenAI's `voice` is the speaker,
 * `language` (or Sarvam's own `target_language_code`, sent as given) the language, default en-IN; `speed` → `pace`.
 */
export function sarvamSpeech(body: Json, model: string): Json {
  const format = asString(body.response_format) ?? 'wav';
  if (!(format in AUDIO_CODECS))
    throw GatewayException.validation('response_format', `sarvam does not produce ${format} audio`);
  const out: Json = {
    text: body.input,
    target_language_code: asString(body.language) ?? SARVAM_DEFAULT_LANGUAGE,
    model,
  };
  if (typeof body.voice === 'string') out.speaker = body.voice.toLowerCase();
  const codec = AUDIO_CODECS[format];
  if (codec) out.output_audio_codec = codec;
  if (typeof body.speed === 'number' || typeof body.speed === 'string') out.pace = Number(body.speed);
  for (const [name, value] of Object.entries(body)) if (!SPEECH_HANDLED.has(name)) out[name] = value;
  return out;
}

/**
 * The content-type of audio bytes from their signature: Sarvam's JSON answer does not say which codec it used, and
 * the adapter does not see the request when it reads the answer.
 */
function sniffAudioType(bytes: Buffer): string {
  const head = bytes.subarray(0, 4).toString('latin1');
  if (head === 'RIFF') return 'audio/wav';
  if (head === 'fLaC') return 'audio/flac';
  if (head === 'OggS') return 'audio/ogg';
  if (head.startsWith('ID3')) return 'audio/mpeg';
  if (bytes[0] === 0xff && bytes.length > 1) return (bytes[1]! & 0xf6) === 0xf0 ? 'audio/aac' : 'audio/mpeg';
  return 'application/octet-stream';
}

/** `{request_id, audios: [base64]}` → the audio bytes (one text in, one audio out; several are joined). */
export function sarvamAudio(body: Json): MediaAnswer {
  const audios = (asArray(body.audios) ?? []).filter((a): a is string => typeof a === 'string');
  if (audios.length === 0) {
    throw new GatewayException(502, 'upstream_error', 'sarvam answered no audio', { reason: 'provider_server_error' });
  }
  const bytes = Buffer.concat(audios.map((a) => Buffer.from(a, 'base64')));
  return { contentType: sniffAudioType(bytes), bytes };
}

/** Transcript formats Sarvam's JSON answer can be turned into. */
const TRANSCRIPT_FORMATS: ReadonlySet<string> = new Set(['json', 'verbose_json']);

/** The multipart fields of `POST /speech-to-text`: `file`, `model`, `language_code` (default: `unknown`, detected). */
export function sarvamTranscriptionFields(body: Json, model: string): Json {
  const format = asString(body.response_format) ?? 'json';
  if (!TRANSCRIPT_FORMATS.has(format)) {
    throw GatewayException.validation('response_format', `sarvam transcripts are served as json or verbose_json`);
  }
  const out: Json = { file: body.file, model, language_code: asString(body.language) ?? 'unknown' };
  for (const [name, value] of Object.entries(body)) if (!TRANSCRIPTION_HANDLED.has(name)) out[name] = value;
  return out;
}

/** `{request_id, transcript, language_code, …}` → OpenAI's transcription `{text, language}`. */
export function fromSarvamTranscript(body: Json): Json {
  const out: Json = { text: asString(body.transcript) ?? '' };
  if (typeof body.language_code === 'string') out.language = body.language_code;
  return out;
}
