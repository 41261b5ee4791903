import { ApiProperty, ApiPropertyOptional, ApiSchema, getSchemaPath } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsObject, IsString, Matches, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import { DURATION_PATTERN, POSITIVE_DURATION_PATTERN } from '../../../../core/config/gateway-config.js';
import { PROVIDER_ID_SCHEMA, PROVIDER_IDS, type ProviderId } from '../../providers/provider-ids.js';
import { SecretValueDto, SecretValueProperty } from '../../../../core/secrets/secret-value.decorator.js';
import type { SecretInput } from '../../../../core/secrets/secret-value.js';
import { IsNullable, IsOptionalNonNull } from '../../../../core/validation/field.decorators.js';
import { IsHttpUrl } from '../../../../core/validation/is-http-url.decorator.js';
import { MAX_RETRIES } from '../network-config.js';

const DURATION_MAX_LENGTH = 32;
export const PROVIDER_ID_MESSAGE = `provider must be one of ${PROVIDER_IDS.join(', ')}`;

@ApiSchema({ name: 'ProviderNetworkConfig' })
export class NetworkConfigDto {
  @ApiPropertyOptional({
    type: String,
    default: '30s',
    maxLength: DURATION_MAX_LENGTH,
    pattern: POSITIVE_DURATION_PATTERN.source,
    description: 'Deadline for the upstream response headers (and a unary body), 1ms to 1h.',
    example: '30s',
  })
  @IsOptionalNonNull()
  @IsString()
  @MaxLength(DURATION_MAX_LENGTH)
  @Matches(POSITIVE_DURATION_PATTERN, {
    message: 'default_request_timeout must be a duration greater than zero such as 30s or 500ms',
  })
  default_request_timeout?: string;

  @ApiPropertyOptional({
    type: 'integer',
    default: 0,
    minimum: 0,
    maximum: MAX_RETRIES,
    description: 'Extra attempts after the first, per model of the fallback chain.',
  })
  @IsOptionalNonNull()
  @IsInt()
  @Min(0)
  @Max(MAX_RETRIES)
  max_retries?: number;

  @ApiPropertyOptional({
    type: String,
    default: '500ms',
    maxLength: DURATION_MAX_LENGTH,
    pattern: DURATION_PATTERN.source,
    description: 'First retry backoff, doubled on each retry up to retry_backoff_max (at most 5m).',
  })
  @IsOptionalNonNull()
  @IsString()
  @MaxLength(DURATION_MAX_LENGTH)
  @Matches(DURATION_PATTERN, { message: 'retry_backoff_initial must be a duration such as 500ms or 1s' })
  retry_backoff_initial?: string;

  @ApiPropertyOptional({
    type: String,
    default: '5s',
    maxLength: DURATION_MAX_LENGTH,
    pattern: DURATION_PATTERN.source,
    description:
      'Longest retry backoff (at most 5m), also the longest provider retry hint waited for; not below retry_backoff_initial.',
  })
  @IsOptionalNonNull()
  @IsString()
  @MaxLength(DURATION_MAX_LENGTH)
  @Matches(DURATION_PATTERN, { message: 'retry_backoff_max must be a duration such as 5s or 1m' })
  retry_backoff_max?: string;
}

/** Settings of a provider that a create and an update may carry. */
class ProviderSettingsDto {
  @ApiPropertyOptional({
    type: String,
    format: 'uri',
    maxLength: 2048,
    nullable: true,
    description:
      "Override of the adapter's default base URL (required for self-hosted ollama, vllm and sgl); no query or fragment. `null` on an update clears it.",
    example: 'https://api.openai.com/v1',
  })
  @IsNullable()
  @IsHttpUrl()
  base_url?: string | null;

  @SecretValueProperty({
    description: 'Header name → SecretValue, added to every call to this provider.',
    map: true,
    nonEmpty: false,
    required: false,
    example: { 'OpenAI-Organization': 'env.OPENAI_ORG' },
  })
  @IsOptionalNonNull()
  extra_headers?: Record<string, SecretInput>;

  @ApiPropertyOptional({ type: NetworkConfigDto, description: 'Timeout and retries; omitted fields keep their value.' })
  @IsOptionalNonNull()
  @IsObject()
  @ValidateNested()
  @Type(() => NetworkConfigDto)
  network_config?: NetworkConfigDto;
}

@ApiSchema({ name: 'ProviderCreateRequest' })
export class CreateProviderDto extends ProviderSettingsDto {
  @ApiProperty({ ...PROVIDER_ID_SCHEMA, description: 'The provider to configure' })
  @IsIn(PROVIDER_IDS, { message: PROVIDER_ID_MESSAGE })
  provider: ProviderId;
}

/** PUT: changes the fields it carries. */
@ApiSchema({ name: 'ProviderUpdateRequest' })
export class UpdateProviderDto extends ProviderSettingsDto {}

@ApiSchema({ name: 'ProviderNetworkConfigView' })
export class NetworkConfigViewDto {
  @ApiProperty({ type: String, example: '30s' }) default_request_timeout: string;
  @ApiProperty({ type: 'integer', example: 0 }) max_retries: number;
  @ApiProperty({ type: String, example: '500ms' }) retry_backoff_initial: string;
  @ApiProperty({ type: String, example: '5s' }) retry_backoff_max: string;
}

@ApiSchema({ name: 'ProviderView' })
export class ProviderViewDto {
  @ApiProperty({ ...PROVIDER_ID_SCHEMA, description: 'Provider id' })
  provider: ProviderId;

  @ApiPropertyOptional({ type: String, format: 'uri', description: 'Base URL override' })
  base_url?: string;

  @ApiProperty({
    type: 'object',
    additionalProperties: { $ref: getSchemaPath(SecretValueDto) },
    description: 'Header name → redacted SecretValue.',
  })
  extra_headers: Record<string, SecretValueDto>;

  @ApiProperty({ type: NetworkConfigViewDto }) network_config: NetworkConfigViewDto;

  @ApiProperty({
    enum: ['api', 'config'],
    enumName: 'CatalogSource',
    description: 'Where it was declared; `config` entries are read-only through the API.',
  })
  source: 'api' | 'config';

  @ApiProperty({ type: 'integer', description: 'Number of keys' }) key_count: number;
  @ApiProperty({ type: String, format: 'date-time' }) created_at: string;
  @ApiProperty({ type: String, format: 'date-time' }) updated_at: string;
}

@ApiSchema({ name: 'ProviderList' })
export class ProviderListDto {
  @ApiProperty({ type: [ProviderViewDto] }) providers: ProviderViewDto[];
  @ApiProperty({ type: 'integer' }) count: number;
}
