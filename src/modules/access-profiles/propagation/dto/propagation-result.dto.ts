import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { PROPAGATION_FIELDS, type PropagationField } from '../../access-profile-fields.js';
import { PROPAGATION_STATUSES, type PropagationStatus } from '../entities/access-profile-propagation.entity.js';

@ApiSchema({ name: 'PropagationResult' })
export class PropagationResultDto {
  @ApiProperty({ description: 'Selected users whose copy was (or, on a dry run, would be) updated' })
  affected_users: number;

  @ApiProperty({ description: 'Selected users whose copy could not take the fields (nothing of theirs changed)' })
  failed_users: number;

  @ApiProperty({ description: 'Selected users without a copy, or whose copy already matches' })
  skipped_users: number;

  @ApiProperty({ type: [String], description: 'The affected users' })
  user_ids: string[];

  @ApiProperty({ type: 'array', items: { type: 'string', enum: [...PROPAGATION_FIELDS] } })
  fields: PropagationField[];

  @ApiProperty({ description: 'False on a dry run (nothing written)' })
  applied: boolean;

  @ApiProperty({
    type: [String],
    description: 'One entry per affected user whose managed keys could not be rewritten (`user <id>: <reason>`)',
  })
  vk_sync_errors: string[];
}

@ApiSchema({ name: 'PropagationAccepted' })
export class PropagationAcceptedDto {
  @ApiProperty({
    format: 'uuid',
    description: 'Follow it at GET /api/governance/access-profiles/propagations/{job_id}',
  })
  job_id: string;
}

@ApiSchema({ name: 'PropagationStatus' })
export class PropagationStatusDto {
  @ApiProperty({ format: 'uuid' })
  job_id: string;

  @ApiProperty()
  access_profile_id: number;

  @ApiProperty({ enum: PROPAGATION_STATUSES })
  status: PropagationStatus;

  @ApiProperty({ description: 'Selected users with a recorded outcome' })
  processed: number;

  @ApiProperty({ description: 'Selected users (0 until the job started)' })
  total: number;

  @ApiPropertyOptional({ type: PropagationResultDto, description: 'Once completed' })
  result?: PropagationResultDto;

  @ApiPropertyOptional({ description: 'Why it failed (status failed)' })
  error?: string;

  @ApiProperty({ format: 'date-time' })
  created_at: string;

  @ApiPropertyOptional({ format: 'date-time' })
  finished_at?: string;
}
