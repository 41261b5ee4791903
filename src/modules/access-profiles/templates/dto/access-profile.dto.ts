import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsBoolean, IsString, MaxLength, MinLength } from 'class-validator';
import { IsOptionalNonNull, IsStringList } from '../../../../core/validation/field.decorators.js';
import { PROVIDER_ID_SCHEMA, type ProviderId } from '../../../inference/index.js';
import { BudgetInputDto, RateLimitInputDto } from '../../../governance/index.js';
import { MAX_PROFILE_TAGS, type ProfileBudgetScope } from '../../access-profile-fields.js';
import {
  McpServerRefDto,
  McpToolGroupRefDto,
  McpToolOverrideDto,
  ProfileFieldsInputDto,
} from './profile-fields.dto.js';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

/** What create and update take besides the name: description, state, tags and the profile fields. */
export class AccessProfileAttributesInputDto extends ProfileFieldsInputDto {
  @ApiPropertyOptional({ maxLength: 4096, default: '' })
  @IsOptionalNonNull()
  @IsString()
  @MaxLength(4096)
  description?: string;

  @ApiPropertyOptional({ default: true, description: 'An inactive template cannot be assigned; copies are kept' })
  @IsOptionalNonNull()
  @IsBoolean()
  is_active?: boolean;

  @ApiPropertyOptional({ type: [String], maxItems: MAX_PROFILE_TAGS, default: [] })
  @IsOptionalNonNull()
  @IsStringList({ maxItems: MAX_PROFILE_TAGS, maxLength: 64 })
  @ArrayMaxSize(MAX_PROFILE_TAGS)
  tags?: string[];
}

/** Create: a name and any of the profile fields. */
@ApiSchema({ name: 'CreateAccessProfileRequest' })
export class CreateAccessProfileDto extends AccessProfileAttributesInputDto {
  @ApiProperty({ maxLength: 255, description: 'Unique among templates (409 `already_exists`)' })
  @Transform(trim)
  @IsString()
  @MinLength(1, { message: 'name must not be empty' })
  @MaxLength(255)
  name: string;
}

/** Update: any field; an omitted one is kept, `rate_limit: null` clears it. */
@ApiSchema({ name: 'UpdateAccessProfileRequest' })
export class UpdateAccessProfileDto extends AccessProfileAttributesInputDto {
  @ApiPropertyOptional({ maxLength: 255, description: 'Unique among templates (409 `already_exists`)' })
  @IsOptionalNonNull()
  @Transform(trim)
  @IsString()
  @MinLength(1, { message: 'name must not be empty' })
  @MaxLength(255)
  name?: string;
}

/** Clone: the new template's name (and description, else the source's). */
@ApiSchema({ name: 'CloneAccessProfileRequest' })
export class CloneAccessProfileDto {
  @ApiProperty({ maxLength: 255, description: 'Unique among templates (409 `already_exists`)' })
  @Transform(trim)
  @IsString()
  @MinLength(1, { message: 'name must not be empty' })
  @MaxLength(255)
  name: string;

  @ApiPropertyOptional({ maxLength: 4096, description: 'Default: the source template’s' })
  @IsOptionalNonNull()
  @IsString()
  @MaxLength(4096)
  description?: string;
}

@ApiSchema({ name: 'AccessProfileProviderConfig' })
export class ProfileProviderConfigDto {
  @ApiProperty(PROVIDER_ID_SCHEMA)
  provider_name: ProviderId;
  @ApiProperty()
  all_models_allowed: boolean;
  @ApiProperty({ type: [String] })
  allowed_models: string[];
  @ApiProperty({ type: [String] })
  blacklisted_models: string[];
  @ApiProperty({ type: Number, nullable: true })
  weight: number | null;
  @ApiProperty({ type: [BudgetInputDto] })
  budgets: BudgetInputDto[];
  @ApiProperty({ type: RateLimitInputDto, nullable: true })
  rate_limit: RateLimitInputDto | null;
}

@ApiSchema({ name: 'AccessProfileBudget' })
export class ProfileBudgetDto extends BudgetInputDto {
  @ApiProperty({ type: String, example: 'total', description: '`total` or `provider:<provider>`' })
  scope: ProfileBudgetScope;
}

/** A template as stored (the fields complete, defaults filled in). */
@ApiSchema({ name: 'AccessProfile' })
export class AccessProfileDto {
  @ApiProperty({ type: 'integer' })
  id: number;
  @ApiProperty()
  name: string;
  @ApiProperty()
  description: string;
  @ApiProperty()
  is_active: boolean;
  @ApiProperty({ type: 'integer', description: 'The latest stored version (1 on create, +1 on every update)' })
  version: number;
  @ApiProperty({ type: [String] })
  tags: string[];
  @ApiProperty({ type: [ProfileProviderConfigDto] })
  provider_configs: ProfileProviderConfigDto[];
  @ApiProperty({ type: [ProfileBudgetDto] })
  budgets: ProfileBudgetDto[];
  @ApiProperty({ type: RateLimitInputDto, nullable: true })
  rate_limit: RateLimitInputDto | null;
  @ApiProperty()
  calendar_aligned: boolean;
  @ApiProperty({ type: [McpToolGroupRefDto] })
  mcp_tool_groups: McpToolGroupRefDto[];
  @ApiProperty({ type: [McpServerRefDto] })
  mcp_servers: McpServerRefDto[];
  @ApiProperty({ type: [McpToolOverrideDto] })
  mcp_tool_overrides: McpToolOverrideDto[];
  @ApiProperty({ format: 'date-time' })
  created_at: string;
  @ApiProperty({ format: 'date-time' })
  updated_at: string;
}

@ApiSchema({ name: 'AccessProfileResponse' })
export class AccessProfileResponseDto {
  @ApiProperty({ type: AccessProfileDto })
  access_profile: AccessProfileDto;
}

@ApiSchema({ name: 'AccessProfileStateResponse' })
export class AccessProfileStateResponseDto extends AccessProfileResponseDto {
  @ApiProperty({ example: 'Access profile deactivated' })
  message: string;
}

@ApiSchema({ name: 'AccessProfileRole' })
export class AccessProfileRoleDto {
  @ApiProperty({ type: 'integer' })
  id: number;
  @ApiProperty({ type: 'integer' })
  access_profile_id: number;
  @ApiProperty({ format: 'uuid' })
  role_id: string;
  @ApiProperty()
  role_name: string;
  @ApiProperty()
  is_default: boolean;
}

@ApiSchema({ name: 'AccessProfileDetailResponse' })
export class AccessProfileDetailDto extends AccessProfileResponseDto {
  @ApiProperty({ type: [AccessProfileRoleDto] })
  roles: AccessProfileRoleDto[];
  @ApiProperty({ type: 'integer', description: 'Users holding a copy' })
  user_count: number;
}
