import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsNumber,
  IsObject,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { PROVIDER_ID_SCHEMA, PROVIDER_IDS, type ProviderId } from '../../../inference/index.js';
import { IsNullable, IsOptionalNonNull, IsStringList } from '../../../../core/validation/field.decorators.js';
import { BudgetInputDto, RateLimitInputDto, MAX_BUDGETS, PROVIDER_MESSAGE } from '../../../governance/index.js';
import {
  MAX_PROFILE_BUDGETS,
  MAX_PROFILE_PROVIDER_CONFIGS,
  type ProfileBudgetScope,
} from '../../access-profile-fields.js';

/** Most MCP references of each kind one profile holds. */
export const MAX_PROFILE_MCP_ENTRIES = 1000;

@ApiSchema({ name: 'AccessProfileProviderConfigInput' })
export class ProfileProviderConfigInputDto {
  @ApiProperty({ ...PROVIDER_ID_SCHEMA, description: 'The provider; one config per provider' })
  @IsIn(PROVIDER_IDS, { message: PROVIDER_MESSAGE })
  provider_name: ProviderId;

  @ApiPropertyOptional({ default: true, description: 'Every model of the provider (allowed_models ignored)' })
  @IsOptionalNonNull()
  @IsBoolean()
  all_models_allowed?: boolean;

  @ApiPropertyOptional({
    type: [String],
    default: [],
    description: 'With all_models_allowed false: these models only (`[]` none)',
  })
  @IsOptionalNonNull()
  @IsStringList({ maxItems: 1000, maxLength: 255 })
  allowed_models?: string[];

  @ApiPropertyOptional({ type: [String], default: [], description: 'Models refused even when allowed' })
  @IsOptionalNonNull()
  @IsStringList({ maxItems: 1000, maxLength: 255 })
  blacklisted_models?: string[];

  @ApiPropertyOptional({
    type: Number,
    nullable: true,
    minimum: 0,
    default: 1,
    description: 'Share in weighted provider selection of the managed keys; null: never picked by weight',
  })
  @IsNullable()
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'weight must be a number' })
  @Min(0, { message: 'weight must not be negative' })
  @Max(1e6)
  weight?: number | null;

  @ApiPropertyOptional({ type: [BudgetInputDto], maxItems: MAX_BUDGETS, description: 'This provider’s budgets' })
  @IsOptionalNonNull()
  @IsArray()
  @ArrayMaxSize(MAX_BUDGETS)
  @ValidateNested({ each: true })
  @Type(() => BudgetInputDto)
  budgets?: BudgetInputDto[];

  @ApiPropertyOptional({ type: RateLimitInputDto, nullable: true, description: 'This provider’s rate limit' })
  @IsNullable()
  @IsObject()
  @ValidateNested()
  @Type(() => RateLimitInputDto)
  rate_limit?: RateLimitInputDto | null;
}

@ApiSchema({ name: 'AccessProfileBudgetInput' })
export class ProfileBudgetInputDto extends BudgetInputDto {
  @ApiPropertyOptional({
    type: String,
    default: 'total',
    example: 'provider:openai',
    description:
      '`total` (the whole managed key) or `provider:<provider>` (that provider config, which the profile must list)',
  })
  @IsOptionalNonNull()
  @IsString()
  @Matches(/^(total|provider:[a-z0-9_-]{1,64})$/, { message: 'scope must be total or provider:<provider>' })
  scope?: ProfileBudgetScope;
}

@ApiSchema({ name: 'AccessProfileMcpToolGroup' })
export class McpToolGroupRefDto {
  @ApiProperty({ maxLength: 255 })
  @IsString()
  @MinLength(1)
  @MaxLength(255)
  tool_group_id: string;
}

@ApiSchema({ name: 'AccessProfileMcpServer' })
export class McpServerRefDto {
  @ApiProperty({ maxLength: 255, description: 'An MCP client id: every tool it executes is granted' })
  @IsString()
  @MinLength(1)
  @MaxLength(255)
  mcp_server_id: string;
}

@ApiSchema({ name: 'AccessProfileMcpToolOverride' })
export class McpToolOverrideDto {
  @ApiProperty({ maxLength: 255 })
  @IsString()
  @MinLength(1)
  @MaxLength(255)
  mcp_client_id: string;

  @ApiProperty({ maxLength: 255, description: 'The tool’s name on its server' })
  @IsString()
  @MinLength(1)
  @MaxLength(255)
  tool_name: string;

  @ApiProperty({ enum: ['include', 'exclude'] })
  @IsIn(['include', 'exclude'], { message: 'action must be include or exclude' })
  action: 'include' | 'exclude';
}

/** The profile fields a template takes on create and update (every one optional). */
export class ProfileFieldsInputDto {
  @ApiPropertyOptional({ type: [ProfileProviderConfigInputDto], maxItems: MAX_PROFILE_PROVIDER_CONFIGS })
  @IsOptionalNonNull()
  @IsArray()
  @ArrayMaxSize(MAX_PROFILE_PROVIDER_CONFIGS)
  @ValidateNested({ each: true })
  @Type(() => ProfileProviderConfigInputDto)
  provider_configs?: ProfileProviderConfigInputDto[];

  @ApiPropertyOptional({ type: [ProfileBudgetInputDto], maxItems: MAX_PROFILE_BUDGETS })
  @IsOptionalNonNull()
  @IsArray()
  @ArrayMaxSize(MAX_PROFILE_BUDGETS)
  @ValidateNested({ each: true })
  @Type(() => ProfileBudgetInputDto)
  budgets?: ProfileBudgetInputDto[];

  @ApiPropertyOptional({ type: RateLimitInputDto, nullable: true, description: 'null clears it' })
  @IsNullable()
  @IsObject()
  @ValidateNested()
  @Type(() => RateLimitInputDto)
  rate_limit?: RateLimitInputDto | null;

  @ApiPropertyOptional({ description: 'Default of every budget’s calendar_aligned' })
  @IsOptionalNonNull()
  @IsBoolean()
  calendar_aligned?: boolean;

  @ApiPropertyOptional({ type: [McpToolGroupRefDto], maxItems: MAX_PROFILE_MCP_ENTRIES })
  @IsOptionalNonNull()
  @IsArray()
  @ArrayMaxSize(MAX_PROFILE_MCP_ENTRIES)
  @ValidateNested({ each: true })
  @Type(() => McpToolGroupRefDto)
  mcp_tool_groups?: McpToolGroupRefDto[];

  @ApiPropertyOptional({ type: [McpServerRefDto], maxItems: MAX_PROFILE_MCP_ENTRIES })
  @IsOptionalNonNull()
  @IsArray()
  @ArrayMaxSize(MAX_PROFILE_MCP_ENTRIES)
  @ValidateNested({ each: true })
  @Type(() => McpServerRefDto)
  mcp_servers?: McpServerRefDto[];

  @ApiPropertyOptional({ type: [McpToolOverrideDto], maxItems: MAX_PROFILE_MCP_ENTRIES })
  @IsOptionalNonNull()
  @IsArray()
  @ArrayMaxSize(MAX_PROFILE_MCP_ENTRIES)
  @ValidateNested({ each: true })
  @Type(() => McpToolOverrideDto)
  mcp_tool_overrides?: McpToolOverrideDto[];
}
