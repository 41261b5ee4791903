import { ApiProperty, ApiPropertyOptional, ApiSchema, getSchemaPath } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsBoolean,
  IsNotEmpty,
  IsNumber,
  IsObject,
  IsPositive,
  IsString,
  Max,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { PROVIDER_ID_SCHEMA, type ProviderId } from '../../providers/provider-ids.js';
import { SecretValueDto, SecretValueProperty } from '../../../../core/secrets/secret-value.decorator.js';
import type { SecretInput } from '../../../../core/secrets/secret-value.js';
import { IsOptionalNonNull, IsStringList } from '../../../../core/validation/field.decorators.js';
import type { KeyAlias } from '../provider-snapshot.js';
import {
  AzureKeyConfigDto,
  AzureKeyConfigViewDto,
  BedrockKeyConfigDto,
  BedrockKeyConfigViewDto,
  VertexKeyConfigDto,
  VertexKeyConfigViewDto,
} from './key-configs.dto.js';
import { IsAliasMap, MAX_MAP_ENTRIES, MAX_MODEL_NAME_LENGTH } from './map-fields.js';

export const MAX_KEY_WEIGHT = 1_000_000;
const MAX_MODELS = 1000;

/** What a requested model is sent upstream as when a key's alias matches it (fills `routing_info.resolved_key_alias`). */
@ApiSchema({ name: 'ProviderKeyAlias' })
export class KeyAliasDto {
  @ApiProperty({ type: String, minLength: 1, maxLength: 255, description: 'Model id sent to the provider' })
  model_id: string;

  @ApiPropertyOptional({ type: String, maxLength: 255, description: 'Canonical model name, for pricing and logs' })
  model_name?: string;

  @ApiPropertyOptional({ type: String, maxLength: 255, description: 'Model family' })
  model_family?: string;
}

/** Fields a create and an update may carry (an update changes only the fields it carries). */
class KeySettingsDto {
  @SecretValueProperty({
    description:
      'The API key (SecretValue). Required except for ollama, vllm and sgl, Bedrock keys with access_key/secret_key and Vertex keys (service account). `<REDACTED>` on an update keeps the stored value.',
    required: false,
    example: 'env.OPENAI_API_KEY',
  })
  @IsOptionalNonNull()
  value?: SecretInput;

  @ApiPropertyOptional({
    type: Number,
    default: 1,
    exclusiveMinimum: true,
    minimum: 0,
    maximum: MAX_KEY_WEIGHT,
    description: 'Relative weight in the random choice among eligible keys (> 0).',
  })
  @IsOptionalNonNull()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @IsPositive()
  @Max(MAX_KEY_WEIGHT)
  weight?: number;

  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'string', minLength: 1, maxLength: MAX_MODEL_NAME_LENGTH },
    maxItems: MAX_MODELS,
    default: ['*'],
    description: 'Models this key serves: `["*"]` every model, `[]` none, else an allow-list.',
  })
  @IsOptionalNonNull()
  @IsStringList({ maxItems: MAX_MODELS, maxLength: MAX_MODEL_NAME_LENGTH })
  models?: string[];

  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'string', minLength: 1, maxLength: MAX_MODEL_NAME_LENGTH },
    maxItems: MAX_MODELS,
    default: [],
    description: 'Models this key never serves (wins over `models`).',
  })
  @IsOptionalNonNull()
  @IsStringList({ maxItems: MAX_MODELS, maxLength: MAX_MODEL_NAME_LENGTH })
  blacklisted_models?: string[];

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { $ref: getSchemaPath(KeyAliasDto) },
    maxProperties: MAX_MAP_ENTRIES,
    description: 'Requested model → what to send upstream instead.',
    example: { 'gpt-4o': { model_id: 'gpt-4o-2024-11-20' } },
  })
  @IsOptionalNonNull()
  @IsAliasMap()
  aliases?: Record<string, KeyAlias>;

  @ApiPropertyOptional({ type: Boolean, default: true, description: 'Disabled keys are never chosen.' })
  @IsOptionalNonNull()
  @IsBoolean()
  enabled?: boolean;

  @ApiPropertyOptional({ type: AzureKeyConfigDto, description: 'Azure keys only (required there).' })
  @IsOptionalNonNull()
  @IsObject()
  @ValidateNested()
  @Type(() => AzureKeyConfigDto)
  azure_key_config?: AzureKeyConfigDto;

  @ApiPropertyOptional({ type: BedrockKeyConfigDto, description: 'Bedrock keys only (required there).' })
  @IsOptionalNonNull()
  @IsObject()
  @ValidateNested()
  @Type(() => BedrockKeyConfigDto)
  bedrock_key_config?: BedrockKeyConfigDto;

  @ApiPropertyOptional({ type: VertexKeyConfigDto, description: 'Vertex keys only (required there).' })
  @IsOptionalNonNull()
  @IsObject()
  @ValidateNested()
  @Type(() => VertexKeyConfigDto)
  vertex_key_config?: VertexKeyConfigDto;
}

@ApiSchema({ name: 'ProviderKeyCreateRequest' })
export class CreateProviderKeyDto extends KeySettingsDto {
  @ApiProperty({
    type: String,
    minLength: 1,
    maxLength: 255,
    description: 'Unique per provider; what `routing_info.key` shows and `x-gateway-api-key` pins.',
    example: 'primary',
  })
  @IsString()
  @IsNotEmpty({ message: 'name must not be empty' })
  @MaxLength(255)
  name: string;
}

@ApiSchema({ name: 'ProviderKeyUpdateRequest' })
export class UpdateProviderKeyDto extends KeySettingsDto {
  @ApiPropertyOptional({ type: String, minLength: 1, maxLength: 255, description: 'New name, unique per provider.' })
  @IsOptionalNonNull()
  @IsString()
  @IsNotEmpty({ message: 'name must not be empty' })
  @MaxLength(255)
  name?: string;
}

@ApiSchema({ name: 'ProviderKeyView' })
export class ProviderKeyViewDto {
  @ApiProperty({ type: String, format: 'uuid' }) id: string;
  @ApiProperty({ ...PROVIDER_ID_SCHEMA, description: 'Provider of the key' }) provider: ProviderId;
  @ApiProperty({ type: String }) name: string;
  @ApiPropertyOptional({ type: SecretValueDto, description: 'Redacted; absent when the key has none.' })
  value?: SecretValueDto;
  @ApiProperty({ type: Number }) weight: number;
  @ApiProperty({ type: [String] }) models: string[];
  @ApiProperty({ type: [String] }) blacklisted_models: string[];
  @ApiProperty({ type: 'object', additionalProperties: { $ref: getSchemaPath(KeyAliasDto) } })
  aliases: Record<string, KeyAliasDto>;
  @ApiProperty({ type: Boolean }) enabled: boolean;
  @ApiPropertyOptional({ type: AzureKeyConfigViewDto }) azure_key_config?: AzureKeyConfigViewDto;
  @ApiPropertyOptional({ type: BedrockKeyConfigViewDto }) bedrock_key_config?: BedrockKeyConfigViewDto;
  @ApiPropertyOptional({ type: VertexKeyConfigViewDto }) vertex_key_config?: VertexKeyConfigViewDto;
  @ApiProperty({ enum: ['api', 'config'], enumName: 'CatalogSource' }) source: 'api' | 'config';
  @ApiProperty({ type: String, format: 'date-time' }) created_at: string;
  @ApiProperty({ type: String, format: 'date-time' }) updated_at: string;
}

@ApiSchema({ name: 'ProviderKeyList' })
export class ProviderKeyListDto {
  @ApiProperty({ type: [ProviderKeyViewDto] }) keys: ProviderKeyViewDto[];
  @ApiProperty({ type: 'integer' }) count: number;
}
