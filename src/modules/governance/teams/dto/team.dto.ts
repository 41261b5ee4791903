import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsNotEmpty, IsString, IsUUID, MaxLength } from 'class-validator';
import { IsOptionalNonNull } from '../../../../core/validation/field.decorators.js';
import { BudgetViewDto, RateLimitViewDto } from '../../objects/dto/limits.dto.js';
import { OwnerLimitsInputDto, OwnerLimitsUpdateDto } from '../../objects/dto/owner-input.dto.js';

@ApiSchema({ name: 'TeamCreateRequest' })
export class CreateTeamDto extends OwnerLimitsInputDto {
  @ApiProperty({ description: 'Unique name', maxLength: 255, example: 'research' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  name: string;
}

/** PUT changes the fields it carries. */
@ApiSchema({ name: 'TeamUpdateRequest' })
export class UpdateTeamDto extends OwnerLimitsUpdateDto {
  @ApiPropertyOptional({ maxLength: 255 })
  @IsOptionalNonNull()
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  name?: string;
}

@ApiSchema({ name: 'Team' })
export class TeamDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty()
  name: string;

  @ApiProperty({ type: [BudgetViewDto] })
  budgets: BudgetViewDto[];

  @ApiProperty({ type: RateLimitViewDto, nullable: true })
  rate_limit: RateLimitViewDto | null;

  @ApiProperty({ type: [String], description: 'Customers linked to the team (enterprise links)' })
  customer_ids: string[];

  @ApiProperty({ format: 'date-time' })
  created_at: string;

  @ApiProperty({ format: 'date-time' })
  updated_at: string;
}

@ApiSchema({ name: 'TeamOperationResponse' })
export class TeamOperationDto {
  @ApiProperty()
  message: string;

  @ApiProperty({ type: TeamDto })
  team: TeamDto;
}

@ApiSchema({ name: 'TeamList' })
export class TeamListDto {
  @ApiProperty({ type: [TeamDto] })
  teams: TeamDto[];

  @ApiProperty()
  count: number;
}

@ApiSchema({ name: 'TeamCustomerLinkRequest' })
export class LinkCustomerDto {
  @ApiProperty({ format: 'uuid', description: 'The customer to link' })
  @IsUUID('all', { message: 'customer_id must be a UUID' })
  customer_id: string;
}
