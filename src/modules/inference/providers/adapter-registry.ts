import type { ProviderId } from '../../../core/errors/routing-info.dto.js';
import { anthropicAdapter } from './anthropic.adapter.js';
import { cohereAdapter } from './cohere.adapter.js';
import { elevenLabsAdapter } from './elevenlabs.adapter.js';
import { geminiAdapter } from './gemini.adapter.js';
import { AzureAdapter } from './azure.adapter.js';
import { bedrockAdapter } from './bedrock.adapter.js';
import { BedrockMantleAdapter } from './bedrock-mantle.adapter.js';
import { DatabricksAdapter } from './databricks.adapter.js';
import { GitHubCopilotAdapter } from './github-copilot.adapter.js';
import { HuggingFaceAdapter } from './huggingface.adapter.js';
import { MistralAdapter } from './mistral.adapter.js';
import { OpenCodeAdapter } from './opencode.adapter.js';
import { runwareAdapter } from './runware.adapter.js';
import { SarvamAdapter } from './sarvam.adapter.js';
import { replicateAdapter } from './replicate.adapter.js';
import { runwayAdapter } from './runway.adapter.js';
import { openAiCompatibleAdapters } from './openai-compatible.adapter.js';
import type { ProviderAdapter } from './provider-adapter.js';
import { VertexAdapter } from './vertex.adapter.js';

/**
 * Provider id → adapter. A provider without an entry is accepted in the management API (its keys can be stored) but
 * answers 400 `unsupported_operation` on /v1.
 */
const ADAPTERS: Partial<Record<ProviderId, ProviderAdapter>> = {
  anthropic: anthropicAdapter,
  gemini: geminiAdapter,
  ...openAiCompatibleAdapters(),
  azure: new AzureAdapter(),
  cohere: cohereAdapter,
  bedrock: bedrockAdapter,
  databricks: new DatabricksAdapter(),
  huggingface: new HuggingFaceAdapter(),
  mistral: new MistralAdapter(),
  'github-copilot': new GitHubCopilotAdapter(),
  'opencode-zen': new OpenCodeAdapter('opencode-zen'),
  'opencode-go': new OpenCodeAdapter('opencode-go'),
  bedrock_mantle: new BedrockMantleAdapter(),
  vertex: new VertexAdapter(),
  elevenlabs: elevenLabsAdapter,
  runware: runwareAdapter,
  sarvam: new SarvamAdapter(),
  replicate: replicateAdapter,
  runway: runwayAdapter,
};

export function adapterFor(provider: ProviderId): ProviderAdapter | undefined {
  return ADAPTERS[provider];
}
