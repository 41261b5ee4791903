import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';
import { PageQueryDto, PaginationDto } from '../../../../core/http/paging.dto.js';
import { IsOptionalNonNull } from '../../../../core/validation/field.decorators.js';

export class PushConfigQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ type: String, description: 'Only configs of this agent' })
  @IsOptionalNonNull()
  @IsString()
  @MaxLength(255)
  agent_name?: string;

  @ApiPropertyOptional({ type: String, description: 'Only configs of this A2A task' })
  @IsOptionalNonNull()
  @IsString()
  @MaxLength(1024)
  task_id?: string;
}

@ApiSchema({ name: 'PushAuthenticationView' })
export class PushAuthenticationViewDto {
  @ApiProperty({ type: String, description: 'HTTP auth scheme the client asked for', example: 'Bearer' })
  scheme: string;

  @ApiProperty({ type: String, description: 'Always redacted', example: '<REDACTED>' })
  credentials: string;
}

@ApiSchema({ name: 'PushConfigView' })
export class PushConfigViewDto {
  @ApiProperty({ type: String, format: 'uuid', description: 'Gateway id (the callback URL carries it)' })
  id: string;

  @ApiProperty({ type: String, description: 'Agent registration name' })
  agent_name: string;

  @ApiProperty({ type: String, nullable: true, description: 'A2A task id (null until the task exists)' })
  task_id: string | null;

  @ApiProperty({ type: String, description: 'Config id known to the client and the upstream' })
  config_id: string;

  @ApiProperty({ type: String, description: 'Client webhook URL (user info removed, query redacted)' })
  url: string;

  @ApiProperty({ type: String, nullable: true, description: 'Redacted when the client set a token' })
  token: string | null;

  @ApiProperty({ type: PushAuthenticationViewDto, nullable: true })
  authentication: PushAuthenticationViewDto | null;

  @ApiProperty({ type: String, nullable: true, description: 'Virtual key that registered the config' })
  virtual_key_id: string | null;

  @ApiProperty({ type: String, format: 'date-time' })
  created_at: string;
}

@ApiSchema({ name: 'PushConfigList' })
export class PushConfigListDto {
  @ApiProperty({ type: [PushConfigViewDto] })
  push_configs: PushConfigViewDto[];

  @ApiProperty({ type: Number })
  count: number;

  @ApiProperty({ type: PaginationDto })
  pagination: PaginationDto;
}

@ApiSchema({ name: 'PushAck' })
export class PushAckDto {
  @ApiProperty({ type: String, enum: ['accepted', 'duplicate'] })
  status: string;

  @ApiProperty({ type: String, format: 'uuid', description: 'Stored event id' })
  event_id: string;
}
