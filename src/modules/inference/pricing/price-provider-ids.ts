import type { ProviderId } from '../../../core/errors/routing-info.dto.js';

/**
 * Our provider id → the `@pydantic/genai-prices` provider id whose table prices it (checked against the provider
 * list of the pinned 0.1.8 data). `null`: no table. ollama, vllm and sgl are self-hosted (no price); the others have
 * no provider in the package (bedrock_mantle's model ids are not the aws table's). Typed over every id, so adding a
 * provider to PROVIDER_IDS forces a decision here.
 */
const PRICE_PROVIDER_IDS: Record<ProviderId, string | null> = {
  openai: 'openai',
  // The package's azure table falls back to openai, anthropic, deepseek, x-ai and moonshotai for model names.
  azure: 'azure',
  anthropic: 'anthropic',
  bedrock: 'aws',
  bedrock_mantle: null,
  cohere: 'cohere',
  // Gemini and Vertex are both `*.googleapis.com`; Vertex's Claude models come through google's anthropic fallback.
  vertex: 'google',
  gemini: 'google',
  mistral: 'mistral',
  ollama: null,
  'opencode-go': null,
  'opencode-zen': null,
  groq: 'groq',
  sgl: null,
  parasail: null,
  perplexity: 'perplexity',
  cerebras: 'cerebras',
  deepseek: 'deepseek',
  openrouter: 'openrouter',
  elevenlabs: null,
  // The Hugging Face router prices by the sub-provider named in the model suffix (see priceTarget).
  huggingface: null,
  nebius: 'huggingface_nebius',
  xai: 'x-ai',
  replicate: null,
  vllm: null,
  runway: null,
  runware: null,
  fireworks: 'fireworks',
  sarvam: null,
  wafer: null,
  'github-copilot': 'github-copilot',
  databricks: null,
  zro: null,
};

/** Where to look a model up in the package: its provider id and the model names to try, in order. */
export interface PriceTarget {
  providerId: string;
  models: string[];
}

const FIREWORKS_MODEL_PREFIX = 'accounts/fireworks/models/';

/**
 * Model names to try for one of our (provider, model) pairs: the exact id first, then the id without a `models/`
 * prefix (Gemini lists `models/gemini-2.5-flash`; Vertex `publishers/google/models/...`), then, for Fireworks, the
 * short name under the `accounts/fireworks/models/` path its table uses. `undefined`: the provider has no table.
 */
export function priceTarget(provider: ProviderId, model: string): PriceTarget | undefined {
  if (provider === 'huggingface') {
    // `org/model:novita` is routed to (and billed by) the named inference provider; without a suffix the router
    // picks one, so the price is unknown.
    const colon = model.lastIndexOf(':');
    if (colon <= 0 || colon === model.length - 1) return undefined;
    return { providerId: `huggingface_${model.slice(colon + 1).toLowerCase()}`, models: [model.slice(0, colon)] };
  }
  const providerId = PRICE_PROVIDER_IDS[provider];
  if (!providerId) return undefined;
  const models = [model];
  const at = model.lastIndexOf('models/');
  if (at === 0 || (at > 0 && model[at - 1] === '/')) models.push(model.slice(at + 'models/'.length));
  if (provider === 'fireworks' && !model.includes('/')) models.push(FIREWORKS_MODEL_PREFIX + model);
  return { providerId, models };
}
