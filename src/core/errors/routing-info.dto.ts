import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';

/**
 * A provider identifier. The list is the providers' (src/modules/inference/providers/provider-ids.ts), which declare
 * the `ProviderId` schema; the core names it by reference and types it as a string.
 */
export const PROVIDER_ID_REF = { allOf: [{ $ref: '#/components/schemas/ProviderId' }] };

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
  @ApiPropertyOptional({ ...PROVIDER_ID_REF, description: 'Provider that ran the attempt' })
  provider?: string;

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

  @ApiPropertyOptional({ ...PROVIDER_ID_REF, description: 'Set only when a fallback ran' })
  primary_provider?: string;

  @ApiPropertyOptional({ description: 'Set only when a fallback ran' })
  primary_model?: string;

  @ApiPropertyOptional({
    ...PROVIDER_ID_REF,
    description:
      'Provider the caller asked for before routing rules, load balancing or session affinity changed it; omitted when the caller sent a bare model',
  })
  requested_provider?: string;

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
