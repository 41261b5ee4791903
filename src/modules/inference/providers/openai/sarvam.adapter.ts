import { parseMediaAnswer } from '../../media/media-answer.js';
import { encodeMultipartForm, formFieldsOf } from '../../media/multipart-form.js';
import { nativeHeaders } from '../shared/native-adapter-parts.js';
import { OpenAiCompatibleAdapter } from './openai-compatible.adapter.js';
import { OPENAI_COMPATIBLE_PROFILES } from './openai-compatible.table.js';
import type {
  InferenceKind,
  Json,
  MediaAnswer,
  ParsedResponse,
  ProviderTarget,
  UpstreamCall,
} from '../shared/provider-adapter.js';
import { fromSarvamTranscript, sarvamAudio, sarvamSpeech, sarvamTranscriptionFields } from './sarvam-wire.js';

/** The chat surface's suffix; the native speech routes sit at the host's root. */
const OPENAI_SURFACE = /\/v1$/;
const KEY_HEADER = 'api-subscription-key';

/**
 * Sarvam AI: chat through its OpenAI-compatible `/v1/chat/completions` (the table's profile, Bearer), speech and
 * transcription through the native routes with the key in `api-subscription-key`: `POST /text-to-speech` (JSON, the
 * answer's base64 `audios` relayed as audio bytes) and `POST /speech-to-text` (multipart, answered as OpenAI's
 * transcription JSON).
 */
export class SarvamAdapter extends OpenAiCompatibleAdapter {
  override readonly kinds: ReadonlySet<InferenceKind>;

  constructor() {
    const profile = OPENAI_COMPATIBLE_PROFILES.sarvam!;
    super('sarvam', profile);
    this.kinds = new Set<InferenceKind>([...profile.kinds, 'speech', 'transcription']);
  }

  override buildRequest(kind: InferenceKind, body: Json, target: ProviderTarget, stream: boolean): UpstreamCall {
    const host = this.base(target).replace(OPENAI_SURFACE, '');
    if (kind === 'speech') {
      const headers = nativeHeaders(target, { json: true, keyHeader: KEY_HEADER });
      const speech = sarvamSpeech(body, target.model);
      return { method: 'POST', url: `${host}/text-to-speech`, headers, body: JSON.stringify(speech) };
    }
    if (kind === 'transcription') {
      const form = encodeMultipartForm(formFieldsOf(sarvamTranscriptionFields(body, target.model)));
      const headers = nativeHeaders(target, {
        json: false,
        keyHeader: KEY_HEADER,
        fixed: { accept: 'application/json' },
      });
      headers['content-type'] = form.contentType;
      return { method: 'POST', url: `${host}/speech-to-text`, headers, binaryBody: form.body };
    }
    return super.buildRequest(kind, body, target, stream);
  }

  override parseResponse(kind: InferenceKind, body: Json, target: ProviderTarget): ParsedResponse {
    if (kind === 'transcription') return { body: fromSarvamTranscript(body) };
    return super.parseResponse(kind, body, target);
  }

  /** Speech arrives as JSON with base64 audio: the caller gets the bytes, the log their type and size. */
  override parseMediaResponse(kind: InferenceKind, answer: MediaAnswer, target: ProviderTarget): ParsedResponse {
    if (kind !== 'speech') return super.parseMediaResponse(kind, answer, target);
    return parseMediaAnswer(kind, answer, (body) => {
      const audio = sarvamAudio(body);
      return {
        body: { object: 'binary', content_type: audio.contentType, bytes: audio.bytes.length },
        binary: audio,
      };
    });
  }
}
