import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsString, Matches, MaxLength } from 'class-validator';
import { SecretValueDto, SecretValueProperty } from '../../../../core/secrets/secret-value.decorator.js';
import type { SecretInput } from '../../../../core/secrets/secret-value.js';
import { IsOptionalNonNull } from '../../../../core/validation/field.decorators.js';
import { IsHttpUrl } from '../../../../core/validation/is-http-url.decorator.js';
import { IsStringMap, MAX_MAP_ENTRIES } from './map-fields.js';

/** Cloud region names (`us-east-1`, `europe-west4`, `global`). */
const REGION = /^[a-z0-9][a-z0-9-]{0,62}$/;
/** Azure `api-version` values (`2024-10-21`, `2025-04-01-preview`, `v1`). */
const API_VERSION = /^[A-Za-z0-9._-]{1,64}$/;
/** GCP project ids and numbers. */
const PROJECT_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;
/** A service-account JSON file is a few KiB; room for a bundle of them is not needed. */
const MAX_CREDENTIALS_LENGTH = 65_536;

// ---- input ----

@ApiSchema({ name: 'AzureKeyConfig' })
export class AzureKeyConfigDto {
  @ApiProperty({
    type: String,
    format: 'uri',
    maxLength: 2048,
    description: 'The Azure OpenAI resource endpoint.',
    example: 'https://my-resource.openai.azure.com',
  })
  @IsHttpUrl()
  endpoint: string;

  @ApiPropertyOptional({ type: String, pattern: API_VERSION.source, description: 'The `api-version` query value.' })
  @IsOptionalNonNull()
  @IsString()
  @Matches(API_VERSION, { message: 'api_version must be 1 to 64 letters, digits, dots, dashes or underscores' })
  api_version?: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string', minLength: 1, maxLength: 255 },
    maxProperties: MAX_MAP_ENTRIES,
    description: 'Model → deployment name; a model without an entry uses its own name.',
    example: { 'gpt-4o': 'gpt-4o-prod' },
  })
  @IsOptionalNonNull()
  @IsStringMap()
  deployments?: Record<string, string>;
}

@ApiSchema({ name: 'BedrockKeyConfig' })
export class BedrockKeyConfigDto {
  @ApiProperty({ type: String, pattern: REGION.source, example: 'us-east-1', description: 'AWS region.' })
  @IsString()
  @Matches(REGION, { message: 'region must be a region name such as us-east-1' })
  region: string;

  @SecretValueProperty({
    description: 'AWS access key id (with secret_key); without it the key `value` is used as a bearer API key.',
    required: false,
  })
  @IsOptionalNonNull()
  access_key?: SecretInput;

  @SecretValueProperty({ description: 'AWS secret access key (with access_key).', required: false })
  @IsOptionalNonNull()
  secret_key?: SecretInput;

  @SecretValueProperty({ description: 'AWS session token of temporary credentials.', required: false })
  @IsOptionalNonNull()
  session_token?: SecretInput;
}

@ApiSchema({ name: 'VertexKeyConfig' })
export class VertexKeyConfigDto {
  @ApiProperty({ type: String, pattern: PROJECT_ID.source, example: 'my-project', description: 'GCP project id.' })
  @IsString()
  @MaxLength(128)
  @Matches(PROJECT_ID, { message: 'project_id must be a GCP project id such as my-project' })
  project_id: string;

  @ApiProperty({ type: String, pattern: REGION.source, example: 'us-central1', description: 'Vertex AI region.' })
  @IsString()
  @Matches(REGION, { message: 'region must be a region name such as us-central1 or global' })
  region: string;

  @SecretValueProperty({
    description: 'Service-account JSON (SecretValue).',
    maxLength: MAX_CREDENTIALS_LENGTH,
  })
  auth_credentials: SecretInput;
}

// ---- output (secrets redacted) ----

@ApiSchema({ name: 'AzureKeyConfigView' })
export class AzureKeyConfigViewDto {
  @ApiProperty({ type: String, format: 'uri' }) endpoint: string;
  @ApiPropertyOptional({ type: String }) api_version?: string;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' } }) deployments: Record<string, string>;
}

@ApiSchema({ name: 'BedrockKeyConfigView' })
export class BedrockKeyConfigViewDto {
  @ApiProperty({ type: String }) region: string;
  @ApiPropertyOptional({ type: SecretValueDto }) access_key?: SecretValueDto;
  @ApiPropertyOptional({ type: SecretValueDto }) secret_key?: SecretValueDto;
  @ApiPropertyOptional({ type: SecretValueDto }) session_token?: SecretValueDto;
}

@ApiSchema({ name: 'VertexKeyConfigView' })
export class VertexKeyConfigViewDto {
  @ApiProperty({ type: String }) project_id: string;
  @ApiProperty({ type: String }) region: string;
  @ApiProperty({ type: SecretValueDto }) auth_credentials: SecretValueDto;
}
