import { ApiProperty, ApiPropertyOptional, ApiSchema, getSchemaPath } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsNotEmpty,
  IsObject,
  IsString,
  MaxLength,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { SecretValueDto, SecretValueProperty } from '../../../core/secrets/secret-value.decorator.js';
import type { SecretInput } from '../../../core/secrets/secret-value.js';
import { AUTH_TYPES, type UpstreamAuthType } from '../entities/agent.entity.js';
import { IsHttpUrl } from '../../../core/validation/is-http-url.decorator.js';

/** Longest PEM value (a CA bundle of a few dozen certificates). */
const MAX_PEM_LENGTH = 65_536;
import { IsOptionalNonNull, IsStringList } from '../../../core/validation/field.decorators.js';

@ApiSchema({ name: 'AgentUpstreamOAuthConfig' })
export class UpstreamOAuthDto {
  @ApiPropertyOptional({
    type: String,
    maxLength: 2048,
    description:
      'Authorization server issuer; its token endpoint is read from `<provider_url>/.well-known/oauth-authorization-server`.',
    example: 'https://auth.example.com',
  })
  @IsOptionalNonNull()
  @IsHttpUrl()
  provider_url?: string;

  @ApiPropertyOptional({
    type: String,
    maxLength: 2048,
    description: 'OAuth authorization server (or OpenID) metadata document URL; its `token_endpoint` is used.',
  })
  @IsOptionalNonNull()
  @IsHttpUrl()
  discovery_url?: string;

  @ApiPropertyOptional({
    type: String,
    maxLength: 2048,
    description: 'Token endpoint (takes precedence over discovery).',
  })
  @IsOptionalNonNull()
  @IsHttpUrl()
  token_url?: string;

  @SecretValueProperty({ description: 'OAuth client ID (SecretValue).' })
  client_id: SecretInput;

  @SecretValueProperty({ description: 'OAuth client secret (SecretValue).' })
  client_secret: SecretInput;

  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'string', minLength: 1, maxLength: 256 },
    maxItems: 100,
    description: 'Scopes requested (sent space-separated as `scope`).',
  })
  @IsOptionalNonNull()
  @IsStringList({ maxItems: 100, maxLength: 256 })
  scopes?: string[];

  @ApiPropertyOptional({
    type: String,
    maxLength: 2048,
    description: 'RFC 8707 resource indicator sent as `resource`.',
  })
  @IsOptionalNonNull()
  @IsString()
  @IsNotEmpty()
  @MaxLength(2048)
  resource?: string;
}

@ApiSchema({ name: 'AgentUpstreamTLSConfig' })
export class UpstreamTlsDto {
  @ApiPropertyOptional({ type: Boolean, description: 'Skip verification of the upstream certificate (testing only).' })
  @IsOptionalNonNull()
  @IsBoolean()
  insecure_skip_verify?: boolean;

  @SecretValueProperty({
    description: 'PEM CA bundle trusted for the upstream (replaces the system roots).',
    required: false,
    maxLength: MAX_PEM_LENGTH,
  })
  @IsOptionalNonNull()
  ca_cert_pem?: SecretInput;

  @SecretValueProperty({
    description: 'PEM client certificate for mutual TLS (with client_key_pem).',
    required: false,
    maxLength: MAX_PEM_LENGTH,
  })
  @IsOptionalNonNull()
  client_cert_pem?: SecretInput;

  @SecretValueProperty({
    description: 'PEM private key of the client certificate.',
    required: false,
    maxLength: MAX_PEM_LENGTH,
  })
  @IsOptionalNonNull()
  client_key_pem?: SecretInput;
}

@ApiSchema({ name: 'AgentUpstreamAuth' })
export class UpstreamAuthDto {
  @ApiProperty({
    enum: AUTH_TYPES,
    enumName: 'AgentUpstreamAuthType',
    description: 'How the gateway authenticates upstream.',
  })
  @IsIn(AUTH_TYPES)
  type: UpstreamAuthType;

  @SecretValueProperty({
    description: 'Header name to SecretValue; required (nonempty) when type is `headers`.',
    map: true,
    required: false,
    example: { Authorization: 'env.AGENT_TOKEN' },
  })
  @ValidateIf((o: UpstreamAuthDto) => o.type === 'headers')
  headers?: Record<string, SecretInput>;

  @ApiPropertyOptional({
    type: UpstreamOAuthDto,
    description: 'Client-credentials OAuth; required when type is `oauth`.',
  })
  @ValidateIf((o: UpstreamAuthDto) => o.type === 'oauth')
  @IsObject()
  @ValidateNested()
  @Type(() => UpstreamOAuthDto)
  oauth?: UpstreamOAuthDto;

  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'string', minLength: 1, maxLength: 256 },
    maxItems: 100,
    description:
      "Names of the card's `securitySchemes` this credential satisfies; together they must cover one entry of the card's `securityRequirements`.",
  })
  @IsOptionalNonNull()
  @IsStringList({ maxItems: 100, maxLength: 256 })
  security_schemes?: string[];

  @ApiPropertyOptional({ type: Boolean, description: 'Marks a hand-tuned configuration (stored and echoed).' })
  @IsOptionalNonNull()
  @IsBoolean()
  advanced?: boolean;

  @ApiPropertyOptional({ type: UpstreamTlsDto, description: 'TLS options for this phase.' })
  @IsOptionalNonNull()
  @IsObject()
  @ValidateNested()
  @Type(() => UpstreamTlsDto)
  tls?: UpstreamTlsDto;
}

// ---- output (secrets redacted) ----

@ApiSchema({ name: 'AgentUpstreamOAuthConfigView' })
export class UpstreamOAuthViewDto {
  @ApiPropertyOptional({ type: String }) provider_url?: string;
  @ApiPropertyOptional({ type: String }) discovery_url?: string;
  @ApiPropertyOptional({ type: String }) token_url?: string;
  @ApiProperty({ type: SecretValueDto }) client_id: SecretValueDto;
  @ApiProperty({ type: SecretValueDto }) client_secret: SecretValueDto;
  @ApiPropertyOptional({ type: [String] }) scopes?: string[];
  @ApiPropertyOptional({ type: String }) resource?: string;
}

@ApiSchema({ name: 'AgentUpstreamTLSConfigView' })
export class UpstreamTlsViewDto {
  @ApiPropertyOptional({ type: Boolean }) insecure_skip_verify?: boolean;
  @ApiPropertyOptional({ type: SecretValueDto }) ca_cert_pem?: SecretValueDto;
  @ApiPropertyOptional({ type: SecretValueDto }) client_cert_pem?: SecretValueDto;
  @ApiPropertyOptional({ type: SecretValueDto }) client_key_pem?: SecretValueDto;
}

@ApiSchema({ name: 'AgentUpstreamAuthView' })
export class UpstreamAuthViewDto {
  @ApiProperty({ enum: AUTH_TYPES, enumName: 'AgentUpstreamAuthType' }) type: UpstreamAuthType;
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { $ref: getSchemaPath(SecretValueDto) },
    description: 'Header name to redacted SecretValue.',
  })
  headers?: Record<string, SecretValueDto>;
  @ApiPropertyOptional({ type: UpstreamOAuthViewDto }) oauth?: UpstreamOAuthViewDto;
  @ApiPropertyOptional({ type: [String] }) security_schemes?: string[];
  @ApiPropertyOptional({ type: Boolean }) advanced?: boolean;
  @ApiPropertyOptional({ type: UpstreamTlsViewDto }) tls?: UpstreamTlsViewDto;
}
