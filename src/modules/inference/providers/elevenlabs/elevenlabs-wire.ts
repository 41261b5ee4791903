import { GatewayException } from '../../../../core/errors/gateway.exception.js';
import type { Json } from '../shared/provider-adapter.js';
import { asArray, asObject, asString } from '../shared/wire-json.js';

/** OpenAI speech `response_format` → ElevenLabs `output_format` (OpenAI's pcm is 24 kHz 16-bit mono). */
const OUTPUT_FORMATS: Readonly<Record<string, string>> = {
  mp3: 'mp3_44100_128',
  pcm: 'pcm_24000',
  opus: 'opus_48000_128',
  wav: 'wav_44100',
};

/** OpenAI speech members ElevenLabs reads elsewhere (path, query) or not at all. */
const SPEECH_HANDLED: ReadonlySet<string> = new Set([
  'model',
  'input',
  'voice',
  'response_format',
  'speed',
  'instructions',
]);

function refused(param: string, message: string): GatewayException {
  return GatewayException.validation(param, message);
}

/** `POST /v1/text-to-speech/{voice_id}?output_format=…` with `{ text, model_id, voice_settings }`. */
export function elevenLabsSpeech(body: Json, model: string): { path: string; body: Json } {
  const voice = asString(body.voice);
  if (!voice) throw refused('voice', 'voice must name an ElevenLabs voice id');
  const format = asString(body.response_format) ?? 'mp3';
  const outputFormat = typeof body.output_format === 'string' ? body.output_format : OUTPUT_FORMATS[format];
  if (!outputFormat) throw refused('response_format', `elevenlabs does not produce ${format} audio`);
  const out: Json = { text: body.input, model_id: model };
  for (const [name, value] of Object.entries(body)) {
    if (!SPEECH_HANDLED.has(name) && name !== 'output_format') out[name] = value;
  }
  if (typeof body.speed === 'number' || typeof body.speed === 'string') {
    out.voice_settings = { ...asObject(out.voice_settings), speed: Number(body.speed) };
  }
  const query = `?output_format=${encodeURIComponent(outputFormat)}`;
  return { path: `/v1/text-to-speech/${encodeURIComponent(voice)}${query}`, body: out };
}

/** Transcript formats ElevenLabs' JSON answer can be turned into. */
const TRANSCRIPT_FORMATS: ReadonlySet<string> = new Set(['json', 'verbose_json']);

/** The multipart fields of `POST /v1/speech-to-text`: `model_id`, `file`, `language_code`, the rest as sent. */
export function elevenLabsTranscriptionFields(body: Json, model: string): Json {
  const format = asString(body.response_format) ?? 'json';
  if (!TRANSCRIPT_FORMATS.has(format)) {
    throw refused('response_format', `elevenlabs transcripts are served as json or verbose_json, not ${format}`);
  }
  const out: Json = { model_id: model, file: body.file };
  if (body.language !== undefined) out.language_code = body.language;
  for (const [name, value] of Object.entries(body)) {
    if (!['model', 'file', 'language', 'response_format', 'timestamp_granularities', 'prompt'].includes(name)) {
      out[name] = value;
    }
  }
  return out;
}

/**
 * `{ language_code, language_probability, text, words: [{ text, start, end, type }] }` → OpenAI's transcription
 * (`verbose_json` members: `language`, `duration`, `words[{ word, start, end }]`; a `json` reader ignores them).
 */
export function fromElevenLabsTranscript(body: Json): Json {
  const words = (asArray(body.words) ?? [])
    .map((w) => asObject(w))
    .filter((w): w is Json => w !== undefined && (w.type === undefined || w.type === 'word'));
  const last = words[words.length - 1];
  const out: Json = { text: asString(body.text) ?? '', task: 'transcribe' };
  if (typeof body.language_code === 'string') out.language = body.language_code;
  if (typeof last?.end === 'number') out.duration = last.end;
  out.words = words.map((w) => ({ word: w.text, start: w.start, end: w.end }));
  return out;
}

/** `{ detail: { status, message } }`, `{ detail: "…" }` or FastAPI's `{ detail: [{ loc, msg }] }`. */
export function elevenLabsErrorDetail(payload: unknown): { message?: string; code?: string; param?: string } {
  const detail = asObject(payload)?.detail;
  if (typeof detail === 'string') return { message: detail };
  const object = asObject(detail);
  if (object) return { message: asString(object.message), code: asString(object.status) };
  const first = asObject(asArray(detail)?.[0]);
  if (!first) return {};
  const loc = asArray(first.loc)?.filter((part) => part !== 'body');
  return { message: asString(first.msg), param: loc && loc.length > 0 ? loc.join('.') : undefined };
}
