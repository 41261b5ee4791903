import { GatewayException } from '../../../../core/errors/gateway.exception.js';
import type { Json, ParsedResponse, Usage } from '../shared/provider-adapter.js';
import { asString, copyWithout, isJsonObject, jsonObjects } from '../shared/wire-json.js';

/**
 * Mistral's transcription (Voxtral, `POST /v1/audio/transcriptions`, multipart) against OpenAI's: the same route and
 * form, but no `response_format` (the answer is always JSON) and a chat-style usage whose `total_tokens` also counts
 * the audio tokens, which no other member names.
 */

/** Transcript formats Mistral's JSON answer can be turned into. */
const TRANSCRIPT_FORMATS: ReadonlySet<string> = new Set(['json', 'verbose_json']);
/** OpenAI members Mistral does not take (it refuses unknown form fields). */
const NOT_SENT: ReadonlySet<string> = new Set(['response_format', 'stream', 'stream_options']);

/** The canonical body → the form members Mistral takes (its own extras, such as `diarize`, pass through). */
export function mistralTranscriptionBody(body: Json): Json {
  const format = asString(body.response_format) ?? 'json';
  if (!TRANSCRIPT_FORMATS.has(format)) {
    throw GatewayException.validation(
      'response_format',
      `mistral transcripts are served as json or verbose_json, not ${format}`,
    );
  }
  return copyWithout(body, NOT_SENT);
}

const count = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : 0);

/**
 * Mistral's `{prompt_tokens, completion_tokens, total_tokens, prompt_audio_seconds}` → contract usage: the audio
 * tokens (total − prompt − completion) are input, beside the text prompt tokens.
 */
function mistralUsage(raw: unknown): Usage | undefined {
  if (!isJsonObject(raw)) return undefined;
  const text = count(raw.prompt_tokens);
  const completion = count(raw.completion_tokens);
  const total = Math.max(count(raw.total_tokens), text + completion);
  const audio = total - text - completion;
  return {
    prompt_tokens: text + audio,
    completion_tokens: completion,
    total_tokens: total,
    prompt_tokens_details: { text_tokens: text, audio_tokens: audio },
  };
}

/**
 * `{model, text, language, segments, usage}` → OpenAI's transcription: `text` and a tokens usage (what a `json`
 * reader takes), plus the `verbose_json` members `task`, `language`, `duration` (the audio seconds) and `segments`.
 */
export function fromMistralTranscript(body: Json): ParsedResponse {
  const out: Json = { text: asString(body.text) ?? '', task: 'transcribe' };
  if (typeof body.language === 'string') out.language = body.language;
  const seconds = isJsonObject(body.usage) ? body.usage.prompt_audio_seconds : undefined;
  if (typeof seconds === 'number') out.duration = seconds;
  out.segments = jsonObjects(body.segments).map((s, id) => ({ id, start: s.start, end: s.end, text: s.text }));
  const usage = mistralUsage(body.usage);
  if (!usage) return { body: out };
  out.usage = {
    type: 'tokens',
    input_tokens: usage.prompt_tokens,
    input_token_details: usage.prompt_tokens_details,
    output_tokens: usage.completion_tokens,
    total_tokens: usage.total_tokens,
  };
  return { body: out, usage };
}
