import { OpenAiCompatibleAdapter } from './openai-compatible.adapter.js';
import { OPENAI_COMPATIBLE_PROFILES } from './openai-compatible.table.js';
import { fromMistralTranscript, mistralTranscriptionBody } from './mistral-transcription.js';
import type { InferenceKind, Json, ParsedResponse, ProviderTarget, UpstreamCall } from '../shared/provider-adapter.js';

/**
 * Mistral: chat, embeddings and OCR through the table's OpenAI-compatible profile, and transcription (Voxtral) on the
 * same `/v1/audio/transcriptions` route with Mistral's own form and answer (`mistral-transcription.ts`).
 */
export class MistralAdapter extends OpenAiCompatibleAdapter {
  constructor() {
    super('mistral', OPENAI_COMPATIBLE_PROFILES.mistral!);
  }

  override buildRequest(kind: InferenceKind, body: Json, target: ProviderTarget, stream: boolean): UpstreamCall {
    const sent = kind === 'transcription' ? mistralTranscriptionBody(body) : body;
    return super.buildRequest(kind, sent, target, stream);
  }

  override parseResponse(kind: InferenceKind, body: Json, target: ProviderTarget): ParsedResponse {
    if (kind === 'transcription') return fromMistralTranscript(body);
    return super.parseResponse(kind, body, target);
  }
}
