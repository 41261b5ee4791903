import { PaginationDto } from '../../../../core/http/paging.dto.js';
import { ApiProperty, ApiPropertyOptional, ApiSchema, type ApiPropertyOptions } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayNotEmpty,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsIn,
  IsNotEmpty,
  IsNumber,
  IsObject,
  IsString,
  IsUUID,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { PROVIDER_ID_SCHEMA, PROVIDER_IDS, type ProviderId } from '../../../inference/index.js';
import { BudgetViewDto, RateLimitViewDto } from '../../objects/dto/limits.dto.js';
import { OwnerLimitsInputDto, OwnerLimitsUpdateDto } from '../../objects/dto/owner-input.dto.js';
import { DURATION_PATTERN } from '../../../../core/config/gateway-config.js';
import { RFC3339 } from '../../../../core/validation/ids.js';
import { IsNullable, IsOptionalNonNull, IsStringList } from '../../../../core/validation/field.decorators.js';
import { VirtualKeyMcpGrantDto } from '../mcp-grants.js';

export const PROVIDER_MESSAGE = `provider must be one of ${PROVIDER_IDS.join(', ')}`;
/** Most provider configs and MCP configs one key holds. */
export const MAX_PROVIDER_CONFIGS = 50;

/** One provider a key may use (with its own budgets and rate limit). */
@ApiSchema({ name: 'VirtualKeyProviderConfigInput' })
export class ProviderConfigInputDto extends OwnerLimitsInputDto {
  @ApiProperty({ ...PROVIDER_ID_SCHEMA, description: 'The provider; one config per provider' })
  @IsIn(PROVIDER_IDS, { message: PROVIDER_MESSAGE })
  provider: ProviderId;

  @ApiPropertyOptional({
    type: Number,
    nullable: true,
    minimum: 0,
    default: 1,
    description: 'Share in weighted provider selection; null: never picked by weight, still usable by name',
  })
  @IsNullable()
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'weight must be a number' })
  @Min(0, { message: 'weight must not be negative' })
  @Max(1e6)
  weight?: number | null;

  @ApiPropertyOptional({
    type: [String],
    default: ['*'],
    description: '`["*"]` every model (default), `[]` none, else these models',
  })
  @IsOptionalNonNull()
  @IsStringList({ maxItems: 1000, maxLength: 255 })
  allowed_models?: string[];

  @ApiPropertyOptional({ type: [String], default: [], description: 'Models refused even when allowed' })
  @IsOptionalNonNull()
  @IsStringList({ maxItems: 1000, maxLength: 255 })
  blacklisted_models?: string[];

  @ApiPropertyOptional({
    type: [String],
    default: ['*'],
    description:
      'Provider keys the requests may use: `["*"]` every key of the provider (default), `[]` none, else these key ids',
  })
  @IsOptionalNonNull()
  @IsStringList({ maxItems: 1000, maxLength: 64 })
  key_ids?: string[];
}

/** The policy fields shared by create and update. */
const PROVIDER_CONFIGS_DOC: ApiPropertyOptions = {
  type: [ProviderConfigInputDto],
  maxItems: MAX_PROVIDER_CONFIGS,
  description:
    'Providers the key may use. Absent or empty: every configured provider and model. On update a list replaces them (a config for a provider already listed keeps its id and usage), `[]` removes them.',
};
const MCP_CONFIGS_DOC: ApiPropertyOptions = {
  type: [VirtualKeyMcpGrantDto],
  maxItems: MAX_PROVIDER_CONFIGS,
  description:
    'MCP clients the key may use beyond those allowed on every key, each with its tools (one grant per client). On update a list replaces them, `[]` removes them.',
};

@ApiSchema({ name: 'VirtualKeyCreateRequest' })
export class CreateVirtualKeyDto extends OwnerLimitsInputDto {
  @ApiProperty({ description: 'Unique name', maxLength: 255, example: 'team-a-prod' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  name: string;

  @ApiPropertyOptional({ maxLength: 1000 })
  @IsOptionalNonNull()
  @IsString()
  @MaxLength(1000)
  description?: string;

  @ApiPropertyOptional({ default: true, description: 'An inactive key is refused with 403 virtual_key_blocked' })
  @IsOptionalNonNull()
  @IsBoolean()
  is_active?: boolean;

  @ApiPropertyOptional({ format: 'date-time', description: 'RFC 3339 expiry, in the future; absent: never expires' })
  @IsOptionalNonNull()
  @IsString()
  @MaxLength(64)
  @Matches(RFC3339, { message: 'expires_at must be an RFC 3339 date-time' })
  expires_at?: string;

  @ApiPropertyOptional({ format: 'uuid', nullable: true, type: String })
  @IsNullable()
  @IsUUID('all', { message: 'team_id must be a UUID' })
  team_id?: string | null;

  @ApiPropertyOptional({ format: 'uuid', nullable: true, type: String })
  @IsNullable()
  @IsUUID('all', { message: 'customer_id must be a UUID' })
  customer_id?: string | null;

  @ApiPropertyOptional(PROVIDER_CONFIGS_DOC)
  @IsOptionalNonNull()
  @IsArray()
  @ArrayMaxSize(MAX_PROVIDER_CONFIGS)
  @ValidateNested({ each: true })
  @Type(() => ProviderConfigInputDto)
  provider_configs?: ProviderConfigInputDto[];

  @ApiPropertyOptional(MCP_CONFIGS_DOC)
  @IsOptionalNonNull()
  @IsArray()
  @ArrayMaxSize(MAX_PROVIDER_CONFIGS)
  @IsObject({ each: true, message: 'mcp_configs items must be objects' })
  @ValidateNested({ each: true })
  @Type(() => VirtualKeyMcpGrantDto)
  mcp_configs?: VirtualKeyMcpGrantDto[];
}

/**
 * PUT changes the fields it carries; null clears `expires_at`, `team_id`, `customer_id` and `rate_limit`; lists
 * (`provider_configs`, `budgets`, `mcp_configs`) replace the stored ones.
 */
@ApiSchema({ name: 'VirtualKeyUpdateRequest' })
export class UpdateVirtualKeyDto extends OwnerLimitsUpdateDto {
  @ApiPropertyOptional({ maxLength: 255 })
  @IsOptionalNonNull()
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  name?: string;

  @ApiPropertyOptional({ maxLength: 1000 })
  @IsOptionalNonNull()
  @IsString()
  @MaxLength(1000)
  description?: string;

  @ApiPropertyOptional()
  @IsOptionalNonNull()
  @IsBoolean()
  is_active?: boolean;

  @ApiPropertyOptional({ format: 'date-time', nullable: true, type: String })
  @IsNullable()
  @IsString()
  @MaxLength(64)
  @Matches(RFC3339, { message: 'expires_at must be an RFC 3339 date-time' })
  expires_at?: string | null;

  @ApiPropertyOptional({ format: 'uuid', nullable: true, type: String })
  @IsNullable()
  @IsUUID('all', { message: 'team_id must be a UUID' })
  team_id?: string | null;

  @ApiPropertyOptional({ format: 'uuid', nullable: true, type: String })
  @IsNullable()
  @IsUUID('all', { message: 'customer_id must be a UUID' })
  customer_id?: string | null;

  @ApiPropertyOptional(PROVIDER_CONFIGS_DOC)
  @IsOptionalNonNull()
  @IsArray()
  @ArrayMaxSize(MAX_PROVIDER_CONFIGS)
  @ValidateNested({ each: true })
  @Type(() => ProviderConfigInputDto)
  provider_configs?: ProviderConfigInputDto[];

  @ApiPropertyOptional(MCP_CONFIGS_DOC)
  @IsOptionalNonNull()
  @IsArray()
  @ArrayMaxSize(MAX_PROVIDER_CONFIGS)
  @IsObject({ each: true, message: 'mcp_configs items must be objects' })
  @ValidateNested({ each: true })
  @Type(() => VirtualKeyMcpGrantDto)
  mcp_configs?: VirtualKeyMcpGrantDto[];
}

@ApiSchema({ name: 'VirtualKeyRotateRequest' })
export class RotateVirtualKeyDto {
  @ApiPropertyOptional({
    description: 'How long the old value keeps working (`30s`, `5m`, `1h`); absent: it stops at once',
    example: '5m',
  })
  @IsOptionalNonNull()
  @IsString()
  @MaxLength(32)
  @Matches(DURATION_PATTERN, { message: 'grace_period must be a duration such as 30s, 5m or 1h' })
  grace_period?: string;
}

@ApiSchema({ name: 'VirtualKeyBulkRotateRequest' })
export class BulkRotateVirtualKeysDto extends RotateVirtualKeyDto {
  @ApiProperty({ type: [String], description: 'Virtual key ids; all are rotated or none', maxItems: 1000 })
  @IsStringList({ maxItems: 1000, maxLength: 64 })
  @ArrayNotEmpty()
  @ArrayUnique({ message: 'ids must not contain duplicates' })
  ids: unknown[];
}

@ApiSchema({ name: 'VirtualKeyProviderConfig' })
export class ProviderConfigViewDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ ...PROVIDER_ID_SCHEMA })
  provider: ProviderId;

  @ApiProperty({ type: Number, nullable: true })
  weight: number | null;

  @ApiProperty({ type: [String] })
  allowed_models: string[];

  @ApiProperty({ type: [String] })
  blacklisted_models: string[];

  @ApiProperty({ type: [String], description: '`["*"]`: every key of the provider' })
  key_ids: string[];

  @ApiProperty({ type: [BudgetViewDto] })
  budgets: BudgetViewDto[];

  @ApiProperty({ type: RateLimitViewDto, nullable: true })
  rate_limit: RateLimitViewDto | null;
}

@ApiSchema({ name: 'VirtualKeyMcpGrantView' })
export class VirtualKeyMcpGrantViewDto {
  @ApiProperty({ format: 'uuid' })
  mcp_client_id: string;

  @ApiProperty({ type: [String], description: '`["*"]`: every tool the client executes' })
  tools_to_execute: string[];
}

@ApiSchema({ name: 'VirtualKey' })
export class VirtualKeyDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty()
  name: string;

  @ApiProperty()
  description: string;

  @ApiPropertyOptional({ description: 'The key (`sk-gw-` + 32 characters); only in create and rotate responses' })
  value?: string;

  @ApiProperty()
  is_active: boolean;

  @ApiProperty({ format: 'date-time', nullable: true, type: String })
  expires_at: string | null;

  @ApiProperty({ format: 'uuid', nullable: true, type: String })
  team_id: string | null;

  @ApiProperty({ format: 'uuid', nullable: true, type: String })
  customer_id: string | null;

  @ApiProperty({ type: [ProviderConfigViewDto] })
  provider_configs: ProviderConfigViewDto[];

  @ApiProperty({ type: [BudgetViewDto] })
  budgets: BudgetViewDto[];

  @ApiProperty({ type: RateLimitViewDto, nullable: true })
  rate_limit: RateLimitViewDto | null;

  @ApiProperty({ type: [VirtualKeyMcpGrantViewDto], description: 'MCP clients the key may use, with their tools' })
  mcp_configs: VirtualKeyMcpGrantViewDto[];

  @ApiProperty({
    type: Number,
    nullable: true,
    description:
      'The user’s access-profile copy this key was built from: its policy is edit-locked (only name and description change here)',
  })
  access_profile_copy_id: number | null;

  @ApiProperty({ format: 'date-time' })
  created_at: string;

  @ApiProperty({ format: 'date-time' })
  updated_at: string;
}

@ApiSchema({ name: 'VirtualKeyList' })
export class VirtualKeyListDto {
  @ApiProperty({ type: [VirtualKeyDto] })
  virtual_keys: VirtualKeyDto[];

  @ApiProperty({ description: 'Items in this page' })
  count: number;

  @ApiProperty({ type: PaginationDto })
  pagination: PaginationDto;
}

@ApiSchema({ name: 'VirtualKeyOperationResponse' })
export class VirtualKeyOperationDto {
  @ApiProperty()
  message: string;

  @ApiProperty({ type: VirtualKeyDto })
  virtual_key: VirtualKeyDto;
}

@ApiSchema({ name: 'VirtualKeyBulkRotateResponse' })
export class BulkRotateResponseDto {
  @ApiProperty()
  message: string;

  @ApiProperty({ type: [VirtualKeyDto], description: 'Rotated keys with their new values, in request order' })
  virtual_keys: VirtualKeyDto[];
}
