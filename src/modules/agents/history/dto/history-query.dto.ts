import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';
import { PageQueryDto } from '../../../../core/http/paging.dto.js';
import { IsOptionalNonNull } from '../../../../core/validation/field.decorators.js';

/** Query of `GET /api/agents/history`. List filters are comma-separated; times are RFC 3339. */
export class HistoryQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ type: String, description: 'Comma-separated agent names', example: 'billing,search' })
  @IsOptionalNonNull()
  @IsString()
  @MaxLength(8192)
  agent_names?: string;

  @ApiPropertyOptional({
    type: String,
    description:
      'Comma-separated operations: v1 method names (SendMessage, SendStreamingMessage, GetTask, ListTasks, CancelTask, SubscribeToTask, Create/Get/List/DeleteTaskPushNotificationConfig(s), GetExtendedAgentCard) or GetAgentCard, PushNotification, PushDelivery',
    example: 'SendMessage,GetTask',
  })
  @IsOptionalNonNull()
  @IsString()
  @MaxLength(8192)
  operations?: string;

  @ApiPropertyOptional({ type: String, description: 'Comma-separated statuses (success, error)', example: 'error' })
  @IsOptionalNonNull()
  @IsString()
  @MaxLength(64)
  statuses?: string;

  @ApiPropertyOptional({ type: String, description: 'Comma-separated virtual key ids' })
  @IsOptionalNonNull()
  @IsString()
  @MaxLength(8192)
  virtual_key_ids?: string;

  @ApiPropertyOptional({ type: String, description: 'Only operations about this A2A task id' })
  @IsOptionalNonNull()
  @IsString()
  @MaxLength(1024)
  task_id?: string;

  @ApiPropertyOptional({ type: String, format: 'date-time', description: 'Earliest created_at (RFC 3339, inclusive)' })
  @IsOptionalNonNull()
  @IsString()
  @MaxLength(64)
  start_time?: string;

  @ApiPropertyOptional({ type: String, format: 'date-time', description: 'Latest created_at (RFC 3339, inclusive)' })
  @IsOptionalNonNull()
  @IsString()
  @MaxLength(64)
  end_time?: string;
}
