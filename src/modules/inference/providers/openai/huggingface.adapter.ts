import { fromTextToImage, textToImageCall } from './huggingface-image.js';
import { OpenAiCompatibleAdapter } from './openai-compatible.adapter.js';
import { OPENAI_COMPATIBLE_PROFILES } from './openai-compatible.table.js';
import { upstreamHeaders } from './openai-request.js';
import {
  type InferenceKind,
  type Json,
  type MediaAnswer,
  type ParsedResponse,
  type ProviderTarget,
  TOP_LEVEL_ARRAY,
  type UpstreamCall,
} from '../shared/provider-adapter.js';

/** The router's OpenAI-compatible surface; the native tasks live beside it on the same host. */
const OPENAI_SURFACE = '/v1';
/** Feature-extraction parameters passed through; OpenAI's other fields mean nothing there (base64 is encoded later). */
const TASK_FIELDS = ['normalize', 'truncate', 'truncation_direction', 'prompt_name'] as const;

/**
 * Hugging Face Inference Providers: chat through the router's OpenAI-compatible `/v1/chat/completions` (the table's
 * profile), and embeddings through the native feature-extraction task,
 * `POST {router}/hf-inference/models/{model}/pipeline/feature-extraction` with `{inputs}`: the answer is a bare list
 * of vectors (one per input), turned into the OpenAI embeddings list. The task reports no token usage: the body
 * carries zeros and no usage is metered (no cost is invented). Image generation is the native text-to-image task,
 * `POST {router}/hf-inference/models/{model}` with `{inputs, parameters}`, whose image bytes become `data[{b64_json}]`.
 */
export class HuggingFaceAdapter extends OpenAiCompatibleAdapter {
  override readonly kinds: ReadonlySet<InferenceKind> = new Set<InferenceKind>([
    'chat',
    'embeddings',
    'image_generation',
  ]);

  constructor() {
    super('huggingface', OPENAI_COMPATIBLE_PROFILES.huggingface!);
  }

  override buildRequest(kind: InferenceKind, body: Json, target: ProviderTarget, stream: boolean): UpstreamCall {
    if (kind !== 'embeddings' && kind !== 'image_generation') return super.buildRequest(kind, body, target, stream);
    const router = this.base(target).replace(new RegExp(`${OPENAI_SURFACE}$`), '');
    const model = target.model.split('/').map(encodeURIComponent).join('/');
    if (kind === 'image_generation') {
      const task = textToImageCall(body);
      const headers = upstreamHeaders(target, 'bearer', { body: true, stream: false });
      headers.accept = task.accept;
      return {
        method: 'POST',
        url: `${router}/hf-inference/models/${model}`,
        headers,
        body: JSON.stringify(task.body),
      };
    }
    return {
      method: 'POST',
      url: `${router}/hf-inference/models/${model}/pipeline/feature-extraction`,
      headers: upstreamHeaders(target, 'bearer', { body: true, stream: false }),
      body: JSON.stringify(featureExtractionBody(body)),
    };
  }

  /** Text-to-image answers the image's bytes (its content-type names the format). */
  override parseMediaResponse(kind: InferenceKind, answer: MediaAnswer, target: ProviderTarget): ParsedResponse {
    if (kind === 'image_generation') return { body: fromTextToImage(answer) };
    return super.parseMediaResponse(kind, answer, target);
  }

  override parseResponse(kind: InferenceKind, body: Json, target: ProviderTarget): ParsedResponse {
    if (kind !== 'embeddings') return super.parseResponse(kind, body, target);
    const answer = body[TOP_LEVEL_ARRAY];
    const list: unknown[] = Array.isArray(answer) ? (answer as unknown[]) : [];
    // One input answers one vector; a list of inputs answers a list of vectors.
    const vectors: unknown[] = list.length > 0 && list.every((v) => typeof v === 'number') ? [list] : list;
    return {
      body: {
        object: 'list',
        data: vectors.map((embedding, index) => ({ object: 'embedding', index, embedding })),
        model: target.model,
        usage: { prompt_tokens: 0, total_tokens: 0 },
      },
    };
  }
}

function featureExtractionBody(body: Json): Json {
  const out: Json = { inputs: body.input };
  for (const field of TASK_FIELDS) if (body[field] !== undefined) out[field] = body[field];
  return out;
}
