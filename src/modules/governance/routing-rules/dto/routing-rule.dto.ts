import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayNotEmpty,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsNumber,
  IsObject,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { PROVIDER_ID_SCHEMA, PROVIDER_IDS, type ProviderId } from '../../../inference/index.js';
import {
  IsNullable,
  IsOptionalNonNull,
  IsStringList,
  ValidatesWith,
} from '../../../../core/validation/field.decorators.js';
import { RULE_SCOPES, type RuleScope } from '../entities/routing-rule.entity.js';

export const MAX_TARGETS = 20;
export const MAX_RULE_FALLBACKS = 10;
const MAX_EXPRESSION_LENGTH = 4096;
const MAX_PRIORITY = 1_000_000;

@ApiSchema({ name: 'RoutingRuleTarget' })
export class RoutingTargetDto {
  @ApiPropertyOptional({ ...PROVIDER_ID_SCHEMA, description: 'Provider to route to; absent: the request’s' })
  @IsOptionalNonNull()
  @IsIn(PROVIDER_IDS)
  provider?: ProviderId;

  @ApiPropertyOptional({ maxLength: 512, description: 'Model to route to; absent: the request’s' })
  @IsOptionalNonNull()
  @IsString()
  @IsNotEmpty()
  @MaxLength(512)
  model?: string;

  @ApiPropertyOptional({ maxLength: 255, description: 'Pins a key of `provider` by id (needs `provider`)' })
  @IsOptionalNonNull()
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  key_id?: string;

  @ApiProperty({
    type: Number,
    exclusiveMinimum: true,
    minimum: 0,
    maximum: 1,
    description: 'Share of matching requests; the weights of a rule’s targets sum to 1',
  })
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(Number.MIN_VALUE, { message: 'weight must be greater than 0' })
  @Max(1)
  weight: number;
}

/** Fields a create and an update share (an update changes only the fields it carries). */
class RoutingRuleFieldsDto {
  @ApiPropertyOptional({ maxLength: 1000 })
  @IsOptionalNonNull()
  @IsString()
  @MaxLength(1000)
  description?: string;

  @ApiPropertyOptional({ default: true, description: 'A disabled rule is never evaluated' })
  @IsOptionalNonNull()
  @IsBoolean()
  enabled?: boolean;

  @ApiPropertyOptional({
    type: [String],
    maxItems: MAX_RULE_FALLBACKS,
    description:
      'Tried in order when the target fails: `provider/model`, or `provider` alone (the request’s model). Absent or empty: the request’s own fallbacks',
    example: ['anthropic/claude-sonnet-4-5'],
  })
  @IsOptionalNonNull()
  @IsStringList({ maxItems: MAX_RULE_FALLBACKS, maxLength: 600 })
  fallbacks?: unknown[];

  @ApiPropertyOptional({ enum: RULE_SCOPES, default: 'global', description: 'Who the rule applies to' })
  @IsOptionalNonNull()
  @IsIn(RULE_SCOPES)
  scope?: RuleScope;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    format: 'uuid',
    description: 'The team, customer or virtual key id; required unless `scope` is global (then absent or null)',
  })
  @IsNullable()
  @IsString()
  @MaxLength(255)
  scope_id?: string | null;

  @ApiPropertyOptional({
    type: Number,
    default: 0,
    minimum: -MAX_PRIORITY,
    maximum: MAX_PRIORITY,
    description: 'Order within a scope: lower first',
  })
  @IsOptionalNonNull()
  @IsInt()
  @Min(-MAX_PRIORITY)
  @Max(MAX_PRIORITY)
  priority?: number;

  @ApiPropertyOptional({
    default: false,
    description: 'After this rule matches, rules are evaluated again with its target (depth limited, no cycles)',
  })
  @IsOptionalNonNull()
  @IsBoolean()
  chain_rule?: boolean;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    description: 'The dashboard’s rule-builder tree, stored as sent',
  })
  @IsNullable()
  @IsObject()
  query?: Record<string, unknown> | null;
}

@ApiSchema({ name: 'RoutingRuleCreateRequest' })
export class CreateRoutingRuleDto extends RoutingRuleFieldsDto {
  @ApiProperty({ maxLength: 255, description: 'Unique within the scope and scope id', example: 'premium-to-gpt-4o' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  name: string;

  @ApiProperty({
    maxLength: MAX_EXPRESSION_LENGTH,
    description: 'CEL expression over the request (docs/governance.md "Routing rules"); must compile',
    example: 'headers["x-tier"] == "premium"',
  })
  @IsString()
  @IsNotEmpty()
  @MaxLength(MAX_EXPRESSION_LENGTH)
  cel_expression: string;

  @ApiProperty({ type: [RoutingTargetDto], minItems: 1, maxItems: MAX_TARGETS })
  @IsArray()
  @ArrayNotEmpty()
  @ArrayMaxSize(MAX_TARGETS)
  @ValidateNested({ each: true })
  @Type(() => RoutingTargetDto)
  targets: RoutingTargetDto[];
}

/** PUT changes the fields it carries; `targets` sent replaces them all. */
@ApiSchema({ name: 'RoutingRuleUpdateRequest' })
export class UpdateRoutingRuleDto extends RoutingRuleFieldsDto {
  @ApiPropertyOptional({ maxLength: 255 })
  @IsOptionalNonNull()
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  name?: string;

  @ApiPropertyOptional({ maxLength: MAX_EXPRESSION_LENGTH, description: 'CEL expression; must compile' })
  @IsOptionalNonNull()
  @IsString()
  @IsNotEmpty()
  @MaxLength(MAX_EXPRESSION_LENGTH)
  cel_expression?: string;

  @ApiPropertyOptional({ type: [RoutingTargetDto], minItems: 1, maxItems: MAX_TARGETS })
  @IsOptionalNonNull()
  @IsArray()
  @ArrayNotEmpty()
  @ArrayMaxSize(MAX_TARGETS)
  @ValidateNested({ each: true })
  @Type(() => RoutingTargetDto)
  targets?: RoutingTargetDto[];
}

@ApiSchema({ name: 'RoutingRule' })
export class RoutingRuleDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty()
  name: string;

  @ApiProperty()
  description: string;

  @ApiProperty()
  enabled: boolean;

  @ApiProperty()
  cel_expression: string;

  @ApiProperty({ type: [RoutingTargetDto] })
  targets: RoutingTargetDto[];

  @ApiProperty({ type: [String] })
  fallbacks: string[];

  @ApiProperty({ enum: RULE_SCOPES })
  scope: RuleScope;

  @ApiProperty({ type: String, nullable: true })
  scope_id: string | null;

  @ApiProperty()
  priority: number;

  @ApiProperty()
  chain_rule: boolean;

  @ApiProperty({ type: 'object', additionalProperties: true, nullable: true })
  query: Record<string, unknown> | null;

  @ApiProperty({ format: 'date-time' })
  created_at: string;

  @ApiProperty({ format: 'date-time' })
  updated_at: string;
}

@ApiSchema({ name: 'RoutingRuleOperationResponse' })
export class RoutingRuleOperationDto {
  @ApiProperty()
  message: string;

  @ApiProperty({ type: RoutingRuleDto })
  rule: RoutingRuleDto;
}

@ApiSchema({ name: 'RoutingRuleList' })
export class RoutingRuleListDto {
  @ApiProperty({ type: [RoutingRuleDto], description: 'By scope (virtual key, team, customer, global), then priority' })
  rules: RoutingRuleDto[];

  @ApiProperty()
  count: number;
}

export class RoutingRuleQueryDto {
  @ApiPropertyOptional({ enum: RULE_SCOPES, description: 'Only rules of this scope' })
  @IsOptionalNonNull()
  @IsIn(RULE_SCOPES)
  scope?: RuleScope;

  @ApiPropertyOptional({ maxLength: 255, description: 'Only rules of this scope id' })
  @IsOptionalNonNull()
  @IsString()
  @MaxLength(255)
  scope_id?: string;
}

@ApiSchema({ name: 'RoutingRuleValidateRequest' })
export class ValidateRoutingRuleDto {
  @ApiProperty({
    maxLength: MAX_EXPRESSION_LENGTH,
    description: 'The CEL expression to check, as a rule’s `cel_expression`',
    example: 'headers["x-tier"] == "premium"',
  })
  @IsString()
  @MaxLength(MAX_EXPRESSION_LENGTH)
  cel_expression: string;
}

@ApiSchema({ name: 'CelExpressionPosition' })
export class CelExpressionPositionDto {
  @ApiProperty({ description: 'Line, from 1' })
  line: number;

  @ApiProperty({ description: 'Column, from 1' })
  column: number;

  @ApiProperty({ description: 'Offset into the expression, from 0 (UTF-16 code units)' })
  offset: number;
}

@ApiSchema({ name: 'RoutingRuleValidation' })
export class RoutingRuleValidationDto {
  @ApiProperty({ description: 'The expression compiles: a create or update with it is accepted' })
  valid: boolean;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Why it does not compile (the message a create would give), null when valid',
  })
  message: string | null;

  @ApiProperty({
    type: CelExpressionPositionDto,
    nullable: true,
    description: 'Where the problem is, when the parser or the name check can tell',
  })
  position: CelExpressionPositionDto | null;
}

const MAX_SAMPLE_ENTRIES = 100;
const MAX_SAMPLE_VALUE = 4096;

/** Why a sample's headers or params are not an object of at most 100 strings, naming the entry at fault. */
function stringMapProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return ' must be an object of strings';
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length > MAX_SAMPLE_ENTRIES) return ` must have at most ${MAX_SAMPLE_ENTRIES} entries`;
  for (const [name, item] of entries) {
    if (typeof item !== 'string') return `.${name} must be a string`;
    if (item.length > MAX_SAMPLE_VALUE) return `.${name} must be at most ${MAX_SAMPLE_VALUE} characters`;
  }
  return undefined;
}

@ApiSchema({ name: 'RoutingRuleTryRequest' })
export class TryRoutingRulesDto {
  @ApiPropertyOptional({
    ...PROVIDER_ID_SCHEMA,
    description: 'The provider the sample request names; absent: a bare model',
  })
  @IsOptionalNonNull()
  @IsIn(PROVIDER_IDS)
  provider?: ProviderId;

  @ApiProperty({ maxLength: 512, description: 'The model the sample request names', example: 'gpt-4o-mini' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(512)
  model: string;

  @ApiPropertyOptional({
    maxLength: 64,
    default: 'chat_completion',
    description: 'The `request_type` variable (`chat_completion`, `embedding`, …)',
  })
  @IsOptionalNonNull()
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  request_type?: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string' },
    description: 'Request headers (the `headers` variable; names are lower-cased, credentials ignored)',
    example: { 'x-tier': 'premium' },
  })
  @IsOptionalNonNull()
  @ValidatesWith('isStringMap', stringMapProblem)
  headers?: Record<string, string>;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string' },
    description: 'Query parameters (the `params` variable)',
  })
  @IsOptionalNonNull()
  @ValidatesWith('isStringMap', stringMapProblem)
  params?: Record<string, string>;

  @ApiPropertyOptional({
    format: 'uuid',
    description: 'Evaluate as this virtual key (its rules, team, customer and usage); absent: no key',
  })
  @IsOptionalNonNull()
  @IsString()
  @MaxLength(255)
  virtual_key_id?: string;

  @ApiPropertyOptional({
    type: [String],
    maxItems: MAX_RULE_FALLBACKS,
    description: 'The sample request’s own `fallbacks` (a matched rule with fallbacks replaces them)',
  })
  @IsOptionalNonNull()
  @IsStringList({ maxItems: MAX_RULE_FALLBACKS, maxLength: 600 })
  fallbacks?: string[];
}

@ApiSchema({ name: 'RoutingRuleTryStep' })
export class RoutingRuleTryStepDto {
  @ApiProperty({ format: 'uuid' })
  rule_id: string;

  @ApiProperty()
  rule_name: string;

  @ApiProperty({ type: [RoutingTargetDto], description: 'The matched rule’s targets; one is picked by weight' })
  targets: RoutingTargetDto[];

  @ApiProperty({
    ...PROVIDER_ID_SCHEMA,
    nullable: true,
    description: 'The picked target’s provider (or the request’s)',
  })
  provider: ProviderId | null;

  @ApiProperty()
  model: string;

  @ApiProperty({ type: String, nullable: true, description: 'The key the target pins' })
  key_id: string | null;
}

@ApiSchema({ name: 'RoutingRuleTryResult' })
export class RoutingRuleTryResultDto {
  @ApiProperty({ description: 'Some rule matched' })
  matched: boolean;

  @ApiProperty({
    type: [RoutingRuleTryStepDto],
    description: 'The rules that matched, in order (more than one when a `chain_rule` evaluated again)',
  })
  steps: RoutingRuleTryStepDto[];

  @ApiProperty({
    type: [String],
    description:
      'The provider/model chain the request would try: the decided target, then the fallbacks (the rule’s, else the request’s)',
    example: ['openai/gpt-4o', 'anthropic/claude-sonnet-4-5'],
  })
  chain: string[];
}
