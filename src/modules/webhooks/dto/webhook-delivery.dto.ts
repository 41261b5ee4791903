import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsIn, IsString, MaxLength } from 'class-validator';
import { PageQueryDto, PaginationDto } from '../../../core/http/paging.dto.js';
import { IsOptionalNonNull } from '../../../core/validation/field.decorators.js';
import { DELIVERY_STATUSES, type DeliveryStatus } from '../entities/webhook-delivery.entity.js';

export const MAX_EVENT_LENGTH = 128;

/** Query of `GET /api/webhooks/{id}/deliveries`. */
export class WebhookDeliveryQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: DELIVERY_STATUSES, enumName: 'WebhookDeliveryStatus', description: 'Only this status.' })
  @IsOptionalNonNull()
  @IsIn(DELIVERY_STATUSES)
  status?: DeliveryStatus;

  @ApiPropertyOptional({
    type: String,
    maxLength: MAX_EVENT_LENGTH,
    description: 'Only this event (exact).',
    example: 'webhook.test',
  })
  @IsOptionalNonNull()
  @IsString()
  @MaxLength(MAX_EVENT_LENGTH)
  event?: string;
}

@ApiSchema({ name: 'WebhookDeliveryAttempt' })
export class DeliveryAttemptDto {
  @ApiProperty({ type: 'integer', description: '1 for the first attempt.' }) attempt: number;
  @ApiProperty({ type: String, format: 'date-time', description: 'When the request started.' }) at: string;
  @ApiPropertyOptional({ type: 'integer', description: "The receiver's HTTP status; absent when no answer came." })
  status_code?: number;
  @ApiPropertyOptional({ type: String, description: 'Why the attempt failed; absent on success.' }) error?: string;
  @ApiProperty({ type: 'integer' }) duration_ms: number;
  @ApiPropertyOptional({ type: String, description: "The first KiB of the receiver's answer." })
  response_excerpt?: string;
}

@ApiSchema({ name: 'WebhookDelivery' })
export class WebhookDeliveryViewDto {
  @ApiProperty({ type: String, format: 'uuid', description: 'Also the envelope `id` and `x-gateway-webhook-id`.' })
  id: string;
  @ApiProperty({ type: String, format: 'uuid' }) webhook_id: string;
  @ApiProperty({ type: String, example: 'async_job.completed' }) event: string;
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'The envelope `data`.' })
  payload: Record<string, unknown>;
  @ApiProperty({ enum: DELIVERY_STATUSES, enumName: 'WebhookDeliveryStatus' }) status: DeliveryStatus;
  @ApiProperty({ type: [DeliveryAttemptDto], description: 'Every attempt, oldest first.' })
  attempts: DeliveryAttemptDto[];
  @ApiProperty({ type: 'integer', description: 'Attempts made so far.' }) attempt_count: number;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'When the next attempt is due; null once succeeded or failed.',
  })
  next_attempt_at: string | null;
  @ApiProperty({ type: String, format: 'date-time' }) created_at: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) delivered_at: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'The delivery this one repeats.' })
  redelivery_of: string | null;
}

@ApiSchema({ name: 'WebhookDeliveryList' })
export class WebhookDeliveryListDto {
  @ApiProperty({ type: [WebhookDeliveryViewDto], description: 'Newest first.' }) deliveries: WebhookDeliveryViewDto[];
  @ApiProperty({ type: 'integer', description: 'Deliveries on this page.' }) count: number;
  @ApiProperty({ type: PaginationDto }) pagination: PaginationDto;
}
