import { parseMediaAnswer } from '../../media/media-answer.js';
import { encodeMultipartForm, formFieldsOf } from '../../media/multipart-form.js';
import {
  elevenLabsErrorDetail,
  elevenLabsSpeech,
  elevenLabsTranscriptionFields,
  fromElevenLabsTranscript,
} from './elevenlabs-wire.js';
import { nativeHeaders, providerErrorOf, unsupportedKind } from '../shared/native-adapter-parts.js';
import {
  type InferenceKind,
  type Json,
  type ListedModel,
  type MediaAnswer,
  type ParsedResponse,
  type ProviderAdapter,
  type ProviderError,
  type ProviderTarget,
  type StreamDecoder,
  TOP_LEVEL_ARRAY,
  type UpstreamCall,
} from '../shared/provider-adapter.js';
import { asArray, asObject, asString, parseJson } from '../shared/wire-json.js';

export const ELEVENLABS_DEFAULT_BASE_URL = 'https://api.elevenlabs.io';

const KEY_HEADER = 'xi-api-key';

/**
 * ElevenLabs on the unified API: speech (`/v1/audio/speech` → `POST /v1/text-to-speech/{voice_id}`, OpenAI's
 * `voice` is the ElevenLabs voice id, `response_format` → `output_format`) and transcription
 * (`/v1/audio/transcriptions` → `POST /v1/speech-to-text`, multipart `model_id` + `file`, answered in OpenAI's
 * transcription shape). The key goes in `xi-api-key`.
 */
export const elevenLabsAdapter: ProviderAdapter = {
  kinds: new Set<InferenceKind>(['speech', 'transcription']),

  defaultBaseUrl: () => ELEVENLABS_DEFAULT_BASE_URL,

  buildRequest(kind: InferenceKind, body: Json, target: ProviderTarget): UpstreamCall {
    const base = target.baseUrl.replace(/\/+$/, '');
    if (kind === 'speech') {
      const speech = elevenLabsSpeech(body, target.model);
      const headers = nativeHeaders(target, { json: true, keyHeader: KEY_HEADER, fixed: { accept: '*/*' } });
      return { method: 'POST', url: base + speech.path, headers, body: JSON.stringify(speech.body) };
    }
    if (kind === 'transcription') {
      const form = encodeMultipartForm(formFieldsOf(elevenLabsTranscriptionFields(body, target.model)));
      const headers = nativeHeaders(target, {
        json: false,
        keyHeader: KEY_HEADER,
        fixed: { accept: 'application/json' },
      });
      headers['content-type'] = form.contentType;
      return { method: 'POST', url: `${base}/v1/speech-to-text`, headers, binaryBody: form.body };
    }
    throw unsupportedKind('elevenlabs', kind);
  },

  parseResponse(kind: InferenceKind, body: Json): ParsedResponse {
    if (kind === 'transcription') return { body: fromElevenLabsTranscript(body) };
    throw unsupportedKind('elevenlabs', kind);
  },

  parseMediaResponse(kind: InferenceKind, answer: MediaAnswer, target: ProviderTarget): ParsedResponse {
    return parseMediaAnswer(kind, answer, (body) => this.parseResponse(kind, body, target));
  },

  streamDecoder(kind: InferenceKind): StreamDecoder {
    throw unsupportedKind('elevenlabs', kind);
  },

  parseError(status: number, headers: Record<string, string | string[] | undefined>, body: string): ProviderError {
    return providerErrorOf('elevenlabs', status, headers, body, elevenLabsErrorDetail(parseJson(body)));
  },

  buildListModels(target: ProviderTarget): UpstreamCall {
    return {
      method: 'GET',
      url: `${target.baseUrl.replace(/\/+$/, '')}/v1/models`,
      headers: nativeHeaders(target, { json: false, keyHeader: KEY_HEADER }),
    };
  },

  /** ElevenLabs answers a bare array (handed over as `{ [TOP_LEVEL_ARRAY]: [...] }`); `{ models: [...] }` is read too. */
  parseListModels(body: Json): ListedModel[] {
    const rows = asArray(body[TOP_LEVEL_ARRAY]) ?? asArray(body.models) ?? [];
    return rows.flatMap((row) => {
      const id = asString(asObject(row)?.model_id);
      return id ? [{ id, owned_by: 'elevenlabs' }] : [];
    });
  },
};
