import type { ProviderAdapter } from './shared/provider-adapter.js';

/** The wire family a provider speaks: the folder under `providers/` that holds its adapter and inbound format. */
export type ProviderFamily =
  'openai' | 'anthropic' | 'google' | 'bedrock' | 'cohere' | 'elevenlabs' | 'replicate' | 'runware' | 'runway';

/**
 * The inbound formats a caller may speak besides /v1: the provider-format route sets (`/openai`, Azure's deployment
 * paths under `/openai/openai/deployments`, `/anthropic`, `/genai`, `/bedrock`, `/cohere`). A bare model id sent to one
 * means the provider whose descriptor names it as its `nativeFormat` (registry.ts `nativeProviderOf`).
 */
export const INBOUND_FORMATS = ['openai', 'azure', 'anthropic', 'genai', 'bedrock', 'cohere'] as const;
export type InboundFormat = (typeof INBOUND_FORMATS)[number];

/** A provider-specific block a stored key may carry (`POST /api/providers/{provider}/keys`). */
export const KEY_CONFIG_FIELDS = ['azure_key_config', 'bedrock_key_config', 'vertex_key_config'] as const;
export type KeyConfigField = (typeof KEY_CONFIG_FIELDS)[number];

/** What the gateway knows of one provider id; every per-provider table is read from these (registry.ts). */
export interface ProviderDescriptor {
  readonly family: ProviderFamily;
  /** Absent: the provider's keys can be stored, and `/v1` answers 400 `unsupported_operation`. */
  readonly adapter?: ProviderAdapter;
  /** The inbound format whose bare model ids mean this provider (one provider per format). */
  readonly nativeFormat?: InboundFormat;
  /** The `@pydantic/genai-prices` provider whose table prices it (pinned 0.1.8 data); null: no table. */
  readonly priceId: string | null;
  /** OpenTelemetry `gen_ai.provider.name`; absent: the id itself. */
  readonly otelName?: string;
  /** Rules of its stored keys (catalog/key-rules.ts). */
  readonly keys?: {
    /** A key may have no value (self-hosted servers). */
    readonly valueOptional?: boolean;
    /** The provider-specific block its keys may carry, and whether a key needs it. */
    readonly config?: KeyConfigField;
    readonly configRequired?: boolean;
  };
}
