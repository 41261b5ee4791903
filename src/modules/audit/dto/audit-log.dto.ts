import { PaginationDto } from '../../../core/http/paging.dto.js';
import { ApiProperty, ApiSchema } from '@nestjs/swagger';

@ApiSchema({ name: 'AuditLog' })
export class AuditLogDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ type: String, nullable: true, description: 'Principal name, null when unauthenticated' })
  actor: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'How the caller authenticated',
    enum: ['basic', 'legacy_bearer', 'session', 'management_key', 'setup_token', 'setup_session', 'auth_disabled'],
  })
  auth_method: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'Declared permission, `Resource:Operation`' })
  permission: string | null;

  @ApiProperty({ enum: ['POST', 'PUT', 'PATCH', 'DELETE'] })
  method: string;

  @ApiProperty({ description: 'Route pattern', example: '/api/agents/:name' })
  route: string;

  @ApiProperty({ description: 'Request path without the query string' })
  path: string;

  @ApiProperty({ type: String, nullable: true, description: 'First path parameter value, when present' })
  target_id: string | null;

  @ApiProperty({ description: 'Response status (401/403 when refused)' })
  status_code: number;

  @ApiProperty({ type: String, nullable: true })
  client_address: string | null;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    description:
      'What the write adds: the keys a PUT /api/config asked to change (`changed_keys`, never their values), or a background job acting for a caller (an access profile propagation: its counts); else null',
  })
  metadata: Record<string, unknown> | null;

  @ApiProperty({ format: 'date-time' })
  created_at: string;
}

@ApiSchema({ name: 'AuditLogList' })
export class AuditLogListDto {
  @ApiProperty({ type: [AuditLogDto] })
  audit_logs: AuditLogDto[];

  @ApiProperty({ description: 'Entries in this page' })
  count: number;

  @ApiProperty({ type: PaginationDto })
  pagination: PaginationDto;
}
