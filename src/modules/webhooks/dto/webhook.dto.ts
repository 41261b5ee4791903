import { ApiProperty, ApiPropertyOptional, ApiSchema, getSchemaPath } from '@nestjs/swagger';
import { IsBoolean, IsString, Matches, MaxLength } from 'class-validator';
import { SecretValueDto, SecretValueProperty } from '../../../core/secrets/secret-value.decorator.js';
import type { SecretInput } from '../../../core/secrets/secret-value.js';
import { IsNullable, IsOptionalNonNull } from '../../../core/validation/field.decorators.js';
import { AGENT_NAME_PATTERN } from '../../agents/index.js';
import { IsHttpUrl, MAX_URL_LENGTH } from '../../../core/validation/is-http-url.decorator.js';

const NAME_MESSAGE = 'name must match ^[a-z0-9]+(?:-[a-z0-9]+)*$ (lowercase words joined by -)';
const NAME_SCHEMA = {
  type: String,
  maxLength: 255,
  pattern: AGENT_NAME_PATTERN.source,
  description: 'Unique name, what `x-gateway-async-webhook` names: lowercase words joined by `-`.',
  example: 'billing-events',
} as const;
export const MAX_DESCRIPTION_LENGTH = 1024;

/** Fields shared by create and update. */
class WebhookFieldsDto {
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: MAX_DESCRIPTION_LENGTH,
    description: 'Free text; null clears it.',
  })
  @IsNullable()
  @IsString()
  @MaxLength(MAX_DESCRIPTION_LENGTH)
  description?: string | null;

  @ApiPropertyOptional({
    type: Boolean,
    default: true,
    description: 'A disabled webhook receives nothing: async jobs cannot name it and its pending deliveries fail.',
  })
  @IsOptionalNonNull()
  @IsBoolean()
  enabled?: boolean;

  @SecretValueProperty({
    description:
      'Extra HTTP headers sent with every delivery (name to SecretValue), e.g. an Authorization for the receiver. Redacted in responses; `<REDACTED>` sent back keeps the stored value. Cannot name the headers the gateway sets itself.',
    map: true,
    required: false,
    nonEmpty: false,
    example: { Authorization: 'env.RECEIVER_TOKEN' },
  })
  @IsOptionalNonNull()
  headers?: Record<string, SecretInput>;
}

@ApiSchema({ name: 'WebhookCreateRequest' })
export class CreateWebhookDto extends WebhookFieldsDto {
  @ApiProperty(NAME_SCHEMA)
  @IsString()
  @MaxLength(255)
  @Matches(AGENT_NAME_PATTERN, { message: NAME_MESSAGE })
  name: string;

  @ApiProperty({
    type: String,
    format: 'uri',
    maxLength: MAX_URL_LENGTH,
    description: 'Absolute http(s) URL the events are POSTed to; must pass the outbound address policy.',
    example: 'https://hooks.example.com/gateway',
  })
  @IsHttpUrl()
  url: string;
}

/** PUT: the fields sent replace the stored ones. */
@ApiSchema({ name: 'WebhookUpdateRequest' })
export class UpdateWebhookDto extends WebhookFieldsDto {
  @ApiPropertyOptional({ ...NAME_SCHEMA, description: 'New name (async jobs already submitted keep their webhook).' })
  @IsOptionalNonNull()
  @IsString()
  @MaxLength(255)
  @Matches(AGENT_NAME_PATTERN, { message: NAME_MESSAGE })
  name?: string;

  @ApiPropertyOptional({ type: String, format: 'uri', maxLength: MAX_URL_LENGTH, description: 'New URL.' })
  @IsOptionalNonNull()
  @IsHttpUrl()
  url?: string;
}

@ApiSchema({ name: 'Webhook' })
export class WebhookViewDto {
  @ApiProperty({ type: String, format: 'uuid' }) id: string;
  @ApiProperty({ type: String }) name: string;
  @ApiProperty({ type: String, format: 'uri' }) url: string;
  @ApiProperty({ type: String, nullable: true }) description: string | null;
  @ApiProperty({ type: Boolean }) enabled: boolean;
  @ApiProperty({
    type: 'object',
    additionalProperties: { $ref: getSchemaPath(SecretValueDto) },
    description: 'Header name to redacted SecretValue.',
  })
  headers: Record<string, SecretValueDto>;
  @ApiProperty({
    type: String,
    description:
      'The signing secret: in clear in the answers of create and rotate-secret only (store it then), `<REDACTED>` everywhere else.',
    example: '<REDACTED>',
  })
  secret: string;
  @ApiProperty({ type: String, format: 'date-time' }) created_at: string;
  @ApiProperty({ type: String, format: 'date-time' }) updated_at: string;
}

@ApiSchema({ name: 'WebhookList' })
export class WebhookListDto {
  @ApiProperty({ type: [WebhookViewDto], description: 'By name.' }) webhooks: WebhookViewDto[];
  @ApiProperty({ type: 'integer' }) count: number;
}
