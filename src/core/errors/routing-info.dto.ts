import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';

/**
 * The contract's "provider identifier" (decisions.md, Providers). Documented here because routing info is the first
 * schema that names a provider; the inference module should import it from here rather than keep a second list.
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

/** Set only when the requested model matched a model alias on the key. */
@ApiSchema({ name: 'ResolvedKeyAlias' })
export class ResolvedKeyAliasDto {
  @ApiProperty({ description: 'Model ID sent to the provider' })
  model_id: string;

  @ApiPropertyOptional({ description: 'Canonical model name, for pricing and logs' })
  model_name?: string;

  @ApiPropertyOptional({ description: 'Model family' })
  model_family?: string;
}

/** Routing info (gateway-api.md): also sent as `x-gateway-routing-info-*` response headers. */
@ApiSchema({ name: 'RoutingInfo' })
export class RoutingInfoDto {
  @ApiPropertyOptional({ ...PROVIDER_ID_SCHEMA, description: 'Provider that ran the attempt' })
  provider?: ProviderId;

  @ApiPropertyOptional({ description: 'Model sent to that provider' })
  model?: string;

  @ApiPropertyOptional({ description: 'Name of the stored key used; never its ID or secret' })
  key?: string;

  @ApiPropertyOptional({
    type: () => ResolvedKeyAliasDto,
    description: 'Set only when the requested model matched a model alias on the key',
  })
  resolved_key_alias?: ResolvedKeyAliasDto;

  @ApiPropertyOptional({
    description: 'True when a fallback served the request or returned the error; omitted when false',
  })
  is_fallback?: boolean;

  @ApiPropertyOptional({ ...PROVIDER_ID_SCHEMA, description: 'Set only when a fallback ran' })
  primary_provider?: ProviderId;

  @ApiPropertyOptional({ description: 'Set only when a fallback ran' })
  primary_model?: string;

  @ApiPropertyOptional({
    ...PROVIDER_ID_SCHEMA,
    description:
      'Provider the caller asked for before routing rules, load balancing or session affinity changed it; omitted when the caller sent a bare model',
  })
  requested_provider?: ProviderId;

  @ApiPropertyOptional({ description: 'Model the caller asked for' })
  requested_model?: string;

  @ApiPropertyOptional({ description: 'Model that answered when a provider switched models inside one call' })
  server_side_fallback_model?: string;

  @ApiPropertyOptional({
    description:
      'Id of the routing rule that chose the provider and model (the last of a chain); omitted when no rule matched. Added beyond the contract',
  })
  routing_rule_id?: string;

  @ApiPropertyOptional({ description: 'Name of that routing rule. Added beyond the contract' })
  routing_rule_name?: string;
}
