/**
 * The contract's "provider identifier" (decisions.md, Providers), in the order of the OpenAPI `ProviderId` enum. What
 * the gateway knows of each is its descriptor in registry.ts; the core knows none of them (its DTOs refer to the
 * `ProviderId` schema by name: src/core/errors/routing-info.dto.ts).
 */
export const PROVIDER_IDS = [
  'openai',
  'azure',
  'anthropic',
  'bedrock',
  'bedrock_mantle',
  'cohere',
  'vertex',
  'mistral',
  'ollama',
  'opencode-go',
  'opencode-zen',
  'groq',
  'sgl',
  'parasail',
  'perplexity',
  'cerebras',
  'deepseek',
  'gemini',
  'openrouter',
  'elevenlabs',
  'huggingface',
  'nebius',
  'xai',
  'replicate',
  'vllm',
  'runway',
  'runware',
  'fireworks',
  'sarvam',
  'wafer',
  'github-copilot',
  'databricks',
  'zro',
] as const;
export type ProviderId = (typeof PROVIDER_IDS)[number];

/**
 * `enumName` makes every provider field share one `ProviderId` schema instead of repeating the list. Swagger gives
 * that schema the first field's description and then merges `enumSchema` from later fields, hence both.
 */
export const PROVIDER_ID_SCHEMA = {
  enum: PROVIDER_IDS,
  enumName: 'ProviderId',
  enumSchema: { description: 'Identifier of a supported upstream model provider' },
} as const;
