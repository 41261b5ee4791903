import { PaginationDto } from '../../../../core/http/paging.dto.js';
import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import type { AgentOperationEntity } from '../entities/agent-operation.entity.js';

@ApiSchema({ name: 'AgentOperation' })
export class AgentOperationDto {
  @ApiProperty({ type: String, format: 'uuid', description: 'Operation id' })
  id: string;

  @ApiProperty({ type: String, description: 'Agent registration name' })
  agent_name: string;

  @ApiProperty({
    type: String,
    description: 'v1 method name (for both bindings), or GetAgentCard, PushNotification, PushDelivery',
    example: 'SendMessage',
  })
  operation: string;

  @ApiProperty({ type: String, nullable: true, enum: ['JSONRPC', 'HTTP+JSON'], description: 'Binding used' })
  protocol_binding: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'Virtual key of the caller' })
  virtual_key_id: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'A2A task id' })
  task_id: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'A2A context id' })
  context_id: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Task state after the operation',
    example: 'TASK_STATE_COMPLETED',
  })
  task_state: string | null;

  @ApiProperty({ type: String, enum: ['success', 'error'], description: 'Outcome' })
  status: string;

  @ApiProperty({ type: Number, description: 'HTTP status answered (or received, for push deliveries)' })
  status_code: number;

  @ApiProperty({ type: Number, description: 'Latency in milliseconds' })
  latency_ms: number;

  @ApiPropertyOptional({ type: Object, nullable: true, description: 'GatewayError body or relayed upstream error' })
  error: Record<string, unknown> | null;

  @ApiPropertyOptional({ type: Object, nullable: true, description: 'Request payload, secrets redacted, size-capped' })
  request_payload: unknown;

  @ApiPropertyOptional({
    type: Object,
    nullable: true,
    description:
      'Response payload, secrets redacted, size-capped. For a stream (SendStreamingMessage, SubscribeToTask): { events: [relayed events in order], event_count, truncated_events (events counted but not kept, when any), client_closed }',
  })
  response_payload: unknown;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Parent operation (the PushNotification a PushDelivery attempt belongs to)',
  })
  parent_id: string | null;

  @ApiProperty({ type: String, format: 'date-time', description: 'When the operation was recorded' })
  created_at: string;

  static from(row: AgentOperationEntity): AgentOperationDto {
    return {
      id: row.id,
      agent_name: row.agent_name,
      operation: row.operation,
      protocol_binding: row.protocol_binding,
      virtual_key_id: row.virtual_key_id,
      task_id: row.task_id,
      context_id: row.context_id,
      task_state: row.task_state,
      status: row.status,
      status_code: row.status_code,
      latency_ms: row.latency_ms,
      error: row.error,
      request_payload: row.request_payload ?? null,
      response_payload: row.response_payload ?? null,
      parent_id: row.parent_id,
      created_at: row.created_at.toISOString(),
    };
  }
}

@ApiSchema({ name: 'AgentHistoryList' })
export class AgentHistoryListDto {
  @ApiProperty({ type: [AgentOperationDto] })
  history: AgentOperationDto[];

  @ApiProperty({ type: Number, description: 'Rows in this page' })
  count: number;

  @ApiProperty({ type: PaginationDto })
  pagination: PaginationDto;
}
