import type { ProviderId } from './provider-ids.js';
import { anthropicAdapter } from './anthropic/anthropic.adapter.js';
import { bedrockAdapter } from './bedrock/bedrock.adapter.js';
import { BedrockMantleAdapter } from './bedrock/bedrock-mantle.adapter.js';
import { cohereAdapter } from './cohere/cohere.adapter.js';
import { elevenLabsAdapter } from './elevenlabs/elevenlabs.adapter.js';
import { geminiAdapter } from './google/gemini.adapter.js';
import { VertexAdapter } from './google/vertex.adapter.js';
import { AzureAdapter } from './openai/azure.adapter.js';
import { DatabricksAdapter } from './openai/databricks.adapter.js';
import { GitHubCopilotAdapter } from './openai/github-copilot.adapter.js';
import { HuggingFaceAdapter } from './openai/huggingface.adapter.js';
import { MistralAdapter } from './openai/mistral.adapter.js';
import { OpenAiCompatibleAdapter } from './openai/openai-compatible.adapter.js';
import { OPENAI_COMPATIBLE_PROFILES } from './openai/openai-compatible.table.js';
import { OpenCodeAdapter } from './openai/opencode.adapter.js';
import { SarvamAdapter } from './openai/sarvam.adapter.js';
import {
  INBOUND_FORMATS,
  type InboundFormat,
  type KeyConfigField,
  type ProviderDescriptor,
} from './provider-descriptor.js';
import { replicateAdapter } from './replicate/replicate.adapter.js';
import { runwareAdapter } from './runware/runware.adapter.js';
import { runwayAdapter } from './runway/runway.adapter.js';
import type { ProviderAdapter } from './shared/provider-adapter.js';

/** A provider spoken through the OpenAI-compatible adapter with its profile (openai-compatible.table.ts). */
function compatible(id: ProviderId): ProviderAdapter {
  const profile = OPENAI_COMPATIBLE_PROFILES[id];
  if (!profile) throw new Error(`no OpenAI-compatible profile for ${id}`);
  return new OpenAiCompatibleAdapter(id, profile);
}

/**
 * Every provider id of the contract and what the gateway knows of it: the one table that adapters, native formats,
 * prices, trace names and key rules are read from. Typed over every id, so a new id in PROVIDER_IDS does not compile
 * without its descriptor. A provider of an existing wire family is one entry here (plus a profile in
 * openai-compatible.table.ts for an OpenAI dialect); a new family is a folder beside the others (docs/architecture.md,
 * "Adding a provider").
 */
export const PROVIDERS: Readonly<Record<ProviderId, ProviderDescriptor>> = {
  openai: {
    family: 'openai',
    adapter: compatible('openai'),
    nativeFormat: 'openai',
    priceId: 'openai',
    otelName: 'openai',
  },
  // The package's azure table falls back to openai, anthropic, deepseek, x-ai and moonshotai for model names.
  azure: {
    family: 'openai',
    adapter: new AzureAdapter(),
    nativeFormat: 'azure',
    priceId: 'azure',
    otelName: 'azure.ai.openai',
    keys: { config: 'azure_key_config', configRequired: true },
  },
  anthropic: {
    family: 'anthropic',
    adapter: anthropicAdapter,
    nativeFormat: 'anthropic',
    priceId: 'anthropic',
    otelName: 'anthropic',
  },
  bedrock: {
    family: 'bedrock',
    adapter: bedrockAdapter,
    nativeFormat: 'bedrock',
    priceId: 'aws',
    otelName: 'aws.bedrock',
    keys: { config: 'bedrock_key_config', configRequired: true },
  },
  // Its model ids are not the aws table's.
  bedrock_mantle: {
    family: 'bedrock',
    adapter: new BedrockMantleAdapter(),
    priceId: null,
    otelName: 'aws.bedrock',
    keys: { config: 'bedrock_key_config' },
  },
  cohere: { family: 'cohere', adapter: cohereAdapter, nativeFormat: 'cohere', priceId: 'cohere', otelName: 'cohere' },
  // Gemini and Vertex are both `*.googleapis.com`; Vertex's Claude models come through google's anthropic fallback.
  vertex: {
    family: 'google',
    adapter: new VertexAdapter(),
    priceId: 'google',
    otelName: 'gcp.vertex_ai',
    keys: { config: 'vertex_key_config', configRequired: true },
  },
  mistral: { family: 'openai', adapter: new MistralAdapter(), priceId: 'mistral', otelName: 'mistral_ai' },
  // Self-hosted: no price, and a key may have no value.
  ollama: { family: 'openai', adapter: compatible('ollama'), priceId: null, keys: { valueOptional: true } },
  'opencode-go': { family: 'openai', adapter: new OpenCodeAdapter('opencode-go'), priceId: null },
  'opencode-zen': { family: 'openai', adapter: new OpenCodeAdapter('opencode-zen'), priceId: null },
  groq: { family: 'openai', adapter: compatible('groq'), priceId: 'groq', otelName: 'groq' },
  sgl: { family: 'openai', adapter: compatible('sgl'), priceId: null, keys: { valueOptional: true } },
  parasail: { family: 'openai', adapter: compatible('parasail'), priceId: null },
  perplexity: { family: 'openai', adapter: compatible('perplexity'), priceId: 'perplexity', otelName: 'perplexity' },
  cerebras: { family: 'openai', adapter: compatible('cerebras'), priceId: 'cerebras' },
  deepseek: { family: 'openai', adapter: compatible('deepseek'), priceId: 'deepseek', otelName: 'deepseek' },
  gemini: {
    family: 'google',
    adapter: geminiAdapter,
    nativeFormat: 'genai',
    priceId: 'google',
    otelName: 'gcp.gemini',
  },
  openrouter: { family: 'openai', adapter: compatible('openrouter'), priceId: 'openrouter' },
  elevenlabs: { family: 'elevenlabs', adapter: elevenLabsAdapter, priceId: null },
  // The Hugging Face router prices by the sub-provider named in the model suffix (pricing/price-provider-ids.ts).
  huggingface: { family: 'openai', adapter: new HuggingFaceAdapter(), priceId: null },
  nebius: { family: 'openai', adapter: compatible('nebius'), priceId: 'huggingface_nebius' },
  xai: { family: 'openai', adapter: compatible('xai'), priceId: 'x-ai', otelName: 'x_ai' },
  replicate: { family: 'replicate', adapter: replicateAdapter, priceId: null },
  vllm: { family: 'openai', adapter: compatible('vllm'), priceId: null, keys: { valueOptional: true } },
  runway: { family: 'runway', adapter: runwayAdapter, priceId: null },
  runware: { family: 'runware', adapter: runwareAdapter, priceId: null },
  fireworks: { family: 'openai', adapter: compatible('fireworks'), priceId: 'fireworks' },
  sarvam: { family: 'openai', adapter: new SarvamAdapter(), priceId: null },
  wafer: { family: 'openai', adapter: compatible('wafer'), priceId: null },
  'github-copilot': { family: 'openai', adapter: new GitHubCopilotAdapter(), priceId: 'github-copilot' },
  databricks: { family: 'openai', adapter: new DatabricksAdapter(), priceId: null },
  zro: { family: 'openai', adapter: compatible('zro'), priceId: null },
};

export function adapterFor(provider: ProviderId): ProviderAdapter | undefined {
  return PROVIDERS[provider].adapter;
}

/** The provider each inbound format's bare model ids mean: the one whose descriptor names the format. */
const NATIVE_PROVIDERS = nativeProviders();

function nativeProviders(): Readonly<Record<InboundFormat, ProviderId>> {
  const out: Partial<Record<InboundFormat, ProviderId>> = {};
  for (const id of Object.keys(PROVIDERS) as ProviderId[]) {
    const format = PROVIDERS[id].nativeFormat;
    if (format === undefined) continue;
    if (out[format]) throw new Error(`inbound format ${format} is native to both ${out[format]} and ${id}`);
    out[format] = id;
  }
  for (const format of INBOUND_FORMATS) {
    if (!out[format]) throw new Error(`no provider names ${format} as its nativeFormat`);
  }
  return out as Record<InboundFormat, ProviderId>;
}

/** The provider a bare model id sent in `format` means (`claude-sonnet-4` on `/anthropic` is Anthropic's). */
export function nativeProviderOf(format: InboundFormat): ProviderId {
  return NATIVE_PROVIDERS[format];
}

/** The `@pydantic/genai-prices` provider that prices it; null: no table. */
export function priceIdOf(provider: ProviderId): string | null {
  return PROVIDERS[provider].priceId;
}

/** `gen_ai.provider.name` of a provider (an id the gateway does not know is its own name). */
export function otelNameOf(provider: string): string {
  return (PROVIDERS as Partial<Record<string, ProviderDescriptor>>)[provider]?.otelName ?? provider;
}

/** A key of this provider may have no value. */
export function keyValueOptional(provider: ProviderId): boolean {
  return PROVIDERS[provider].keys?.valueOptional === true;
}

/** The providers whose keys may carry `field`, in the contract's order. */
export function keyConfigOwners(field: KeyConfigField): ProviderId[] {
  return (Object.keys(PROVIDERS) as ProviderId[]).filter((id) => PROVIDERS[id].keys?.config === field);
}

/** The block a key of this provider cannot work without (endpoint, region, project), if any. */
export function requiredKeyConfig(provider: ProviderId): KeyConfigField | undefined {
  const keys = PROVIDERS[provider].keys;
  return keys?.configRequired ? keys.config : undefined;
}
