import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsIn, IsUUID, Matches } from 'class-validator';
import { IsOptionalNonNull } from '../../../../core/validation/field.decorators.js';
import { PageQueryDto, PaginationDto } from '../../../../core/http/paging.dto.js';
import { ASYNC_JOB_STATUSES, type AsyncJobStatus } from '../entities/async-job.entity.js';

/** The answer of a submit: the job exists and waits for a worker. */
@ApiSchema({ name: 'AsyncJobAccepted' })
export class AsyncJobAcceptedDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ enum: ASYNC_JOB_STATUSES })
  status: AsyncJobStatus;

  @ApiProperty({ format: 'date-time' })
  created_at: string;
}

/** A job as its owner polls it (decisions.md "Async inference"). */
@ApiSchema({ name: 'AsyncJob' })
export class AsyncJobDto extends AsyncJobAcceptedDto {
  @ApiProperty({
    type: 'integer',
    description: '202 while pending or processing; then the status of the synchronous answer',
  })
  status_code: number;

  @ApiPropertyOptional({
    description:
      'The synchronous answer of a completed job; audio as `{ content_type, data }` (base64), a text transcript as ' +
      '`{ content_type, text }`',
  })
  result?: unknown;

  @ApiPropertyOptional({ description: 'The GatewayError of a failed job' })
  error?: unknown;

  @ApiPropertyOptional({ format: 'date-time' })
  completed_at?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'When the result is deleted (completion + TTL)' })
  expires_at?: string;
}

/** A job as operators list it (`GET /api/async-jobs`): no result or request body, who and what instead. */
@ApiSchema({ name: 'AsyncJobSummary' })
export class AsyncJobSummaryDto extends AsyncJobAcceptedDto {
  @ApiProperty({ description: 'The async type (`chat/completions`, ...) or the provider-format route' })
  type: string;

  @ApiProperty({ type: 'integer', nullable: true })
  status_code: number | null;

  @ApiProperty({ type: String, format: 'uuid', nullable: true })
  virtual_key_id: string | null;

  @ApiProperty({ type: String, format: 'uuid', nullable: true })
  webhook_id: string | null;

  @ApiProperty({ type: 'integer', description: 'Runs started (a run that never reached the provider is retried)' })
  attempts: number;

  @ApiPropertyOptional({ description: 'The error of a failed job' })
  error?: unknown;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  started_at: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  completed_at: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  expires_at: string | null;
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

export class AsyncJobsQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: ASYNC_JOB_STATUSES })
  @IsOptionalNonNull()
  @IsIn(ASYNC_JOB_STATUSES)
  status?: AsyncJobStatus;

  @ApiPropertyOptional({ description: 'The async type, e.g. `chat/completions`' })
  @IsOptionalNonNull()
  @Matches(/^[a-z_/:{}.-]{1,128}$/i, { message: 'type must be an async type such as chat/completions' })
  type?: string;

  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptionalNonNull()
  @IsUUID()
  virtual_key_id?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'Jobs created at or after (RFC 3339)' })
  @IsOptionalNonNull()
  @Matches(RFC3339, { message: 'start_time must be an RFC 3339 date-time' })
  start_time?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'Jobs created before (RFC 3339)' })
  @IsOptionalNonNull()
  @Matches(RFC3339, { message: 'end_time must be an RFC 3339 date-time' })
  end_time?: string;
}

@ApiSchema({ name: 'AsyncJobList' })
export class AsyncJobListDto {
  @ApiProperty({ type: [AsyncJobSummaryDto] })
  jobs: AsyncJobSummaryDto[];

  @ApiProperty({ type: PaginationDto })
  pagination: PaginationDto;
}
