import type { ProviderId } from '../provider-ids.js';
import type { AuthStyle } from './openai-request.js';
import type { InferenceKind, Json } from '../shared/provider-adapter.js';

/**
 * Every provider spoken through the OpenAI-compatible adapter (inference.md §1), as data.
 *
 * Base URLs follow the OpenAI SDK convention: the base is everything before `/chat/completions`, version prefix
 * included (`https://api.groq.com/openai/v1`), and a `base_url` override is read the same way. Self-hosted servers
 * and Databricks have no default; their operators often give the bare host, so `requiredPrefix` is appended to a
 * base that does not already end with it.
 *
 * Databricks and Hugging Face extend their profile in adapters of their own (OAuth and Unity Catalog paths;
 * feature-extraction embeddings); GitHub Copilot, OpenCode and Bedrock Mantle have their own adapters.
 */
export interface OpenAiCompatibleProfile {
  /** Undefined: self-hosted, the provider's `base_url` is required. */
  baseUrl?: string;
  /** Appended to a configured base that does not end with it (`/v1` for vLLM given as `http://host:8000`). */
  requiredPrefix?: string;
  auth: AuthStyle;
  kinds: readonly InferenceKind[];
  /** Paths relative to the base that differ from OpenAI's. */
  paths?: Partial<Record<InferenceKind, string>>;
  /** Model listing when it is not `GET {base}/models` (the base as configured, before `requiredPrefix`). */
  listModelsUrl?: (base: string) => string;
  /** Edits the prepared body in place for a provider's dialect. */
  adjustBody?: (kind: InferenceKind, body: Json, model: string) => void;
  /** False when the model rejects `stream_options`; its stream then carries no usage. */
  streamUsage?: (model: string) => boolean;
  /** The provider may end a complete stream without `data: [DONE]`. */
  endsAfterFinish?: boolean;
  /** The provider routes server-side (`openrouter/auto`, `models: [...]`): report the model that answered. */
  serverSideFallback?: boolean;
}

export const OPENAI_PATHS: Readonly<Record<InferenceKind, string>> = {
  chat: '/chat/completions',
  completions: '/completions',
  embeddings: '/embeddings',
  responses: '/responses',
  count_tokens: '/responses/input_tokens',
  rerank: '/rerank',
  speech: '/audio/speech',
  transcription: '/audio/transcriptions',
  image_generation: '/images/generations',
  image_edit: '/images/edits',
  image_variation: '/images/variations',
  ocr: '/ocr',
};

const CHAT: readonly InferenceKind[] = ['chat'];
const TEXT: readonly InferenceKind[] = ['chat', 'completions'];
const TEXT_AND_EMBEDDINGS: readonly InferenceKind[] = ['chat', 'completions', 'embeddings'];
const SELF_HOSTED_WITH_RERANK: readonly InferenceKind[] = ['chat', 'completions', 'embeddings', 'rerank'];

/** Mistral takes the legacy `max_tokens` and ignores `max_completion_tokens`. */
function legacyMaxTokens(_kind: InferenceKind, body: Json): void {
  if (body.max_completion_tokens !== undefined) {
    if (body.max_tokens === undefined) body.max_tokens = body.max_completion_tokens;
    delete body.max_completion_tokens;
  }
}

export const OPENAI_COMPATIBLE_PROFILES: Partial<Record<ProviderId, OpenAiCompatibleProfile>> = {
  openai: {
    baseUrl: 'https://api.openai.com/v1',
    auth: 'bearer',
    kinds: [
      'chat',
      'completions',
      'embeddings',
      'responses',
      'count_tokens',
      'speech',
      'transcription',
      'image_generation',
      'image_edit',
      'image_variation',
    ],
  },
  // Whisper transcriptions on the same base (`/openai/v1/audio/transcriptions`).
  groq: { baseUrl: 'https://api.groq.com/openai/v1', auth: 'bearer', kinds: ['chat', 'transcription'] },
  cerebras: { baseUrl: 'https://api.cerebras.ai/v1', auth: 'bearer', kinds: TEXT },
  fireworks: { baseUrl: 'https://api.fireworks.ai/inference/v1', auth: 'bearer', kinds: TEXT_AND_EMBEDDINGS },
  // grok-2-image on `/v1/images/generations`.
  xai: { baseUrl: 'https://api.x.ai/v1', auth: 'bearer', kinds: [...TEXT, 'image_generation'] },
  nebius: { baseUrl: 'https://api.tokenfactory.nebius.com/v1', auth: 'bearer', kinds: TEXT_AND_EMBEDDINGS },
  parasail: { baseUrl: 'https://api.parasail.io/v1', auth: 'bearer', kinds: TEXT },
  // No version prefix; fill-in-the-middle completions live under /beta.
  deepseek: {
    baseUrl: 'https://api.deepseek.com',
    auth: 'bearer',
    kinds: TEXT,
    paths: { completions: '/beta/completions' },
  },
  // No version prefix; usage carries citation_tokens, num_search_queries, reasoning_tokens and a cost object.
  perplexity: { baseUrl: 'https://api.perplexity.ai', auth: 'bearer', kinds: CHAT, endsAfterFinish: true },
  // usage.cost is a number (USD).
  openrouter: {
    baseUrl: 'https://openrouter.ai/api/v1',
    auth: 'bearer',
    kinds: TEXT_AND_EMBEDDINGS,
    serverSideFallback: true,
  },
  // OCR (`/v1/ocr`, Mistral's own shape, which is /v1/ocr's canonical one); transcription's form and answer are
  // Mistral's own (MistralAdapter).
  mistral: {
    baseUrl: 'https://api.mistral.ai/v1',
    auth: 'bearer',
    kinds: ['chat', 'embeddings', 'ocr', 'transcription'],
    adjustBody: legacyMaxTokens,
  },
  // Chat through the inference router; embeddings are native feature extraction (HuggingFaceAdapter).
  huggingface: { baseUrl: 'https://router.huggingface.co/v1', auth: 'bearer', kinds: CHAT },
  ollama: { requiredPrefix: '/v1', auth: 'bearer', kinds: TEXT_AND_EMBEDDINGS },
  vllm: { requiredPrefix: '/v1', auth: 'bearer', kinds: SELF_HOSTED_WITH_RERANK },
  sgl: { requiredPrefix: '/v1', auth: 'bearer', kinds: SELF_HOSTED_WITH_RERANK },
  wafer: { baseUrl: 'https://pass.wafer.ai/v1', auth: 'bearer', kinds: CHAT },
  zro: { baseUrl: 'https://zro.moonmath.ai/v1', auth: 'bearer', kinds: CHAT },
  // Chat; SarvamAdapter adds the native text-to-speech and speech-to-text (api-subscription-key).
  sarvam: { baseUrl: 'https://api.sarvam.ai/v1', auth: 'bearer', kinds: CHAT },
  // Workspace host + /serving-endpoints, the model is the endpoint name (DatabricksAdapter adds dotted Unity Catalog
  // names and OAuth M2M).
  databricks: {
    requiredPrefix: '/serving-endpoints',
    auth: 'bearer',
    kinds: TEXT_AND_EMBEDDINGS,
    listModelsUrl: (base) => `${base.replace(/\/serving-endpoints$/, '')}/api/2.0/serving-endpoints`,
    // Gemini models behind Databricks reject stream_options.
    streamUsage: (model) => !/gemini/i.test(model),
  },
};
