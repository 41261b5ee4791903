import type { ProviderId } from '../../../core/errors/routing-info.dto.js';
import { anthropicAdapter } from './anthropic.adapter.js';
import { elevenLabsAdapter } from './elevenlabs.adapter.js';
import { geminiAdapter } from './gemini.adapter.js';
import { AzureAdapter } from './azure.adapter.js';
import { openAiCompatibleAdapters } from './openai-compatible.adapter.js';
import type { ProviderAdapter } from './provider-adapter.js';

/**
 * Provider id → adapter. A provider without an entry is accepted in the management API (its keys can be stored) but
 * answers 400 `unsupported_operation` on /v1 until its adapter lands.
 */
const ADAPTERS: Partial<Record<ProviderId, ProviderAdapter>> = {
  anthropic: anthropicAdapter,
  gemini: geminiAdapter,
  ...openAiCompatibleAdapters(),
  azure: new AzureAdapter(),
  elevenlabs: elevenLabsAdapter,
};

export function adapterFor(provider: ProviderId): ProviderAdapter | undefined {
  return ADAPTERS[provider];
}
