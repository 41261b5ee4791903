import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsBoolean } from 'class-validator';
import { PROVIDER_ID_SCHEMA, type ProviderId } from '../../inference/index.js';
import { IsOptionalNonNull } from '../../../core/validation/field.decorators.js';
import { BudgetViewDto, RateLimitViewDto } from '../objects/dto/limits.dto.js';
import { OwnerLimitsUpdateDto } from '../objects/dto/owner-input.dto.js';

@ApiSchema({ name: 'ProviderGovernanceRequest' })
export class PutProviderGovernanceDto extends OwnerLimitsUpdateDto {
  @ApiPropertyOptional({
    description:
      'Default calendar alignment of the budgets (those that do not set their own); sent without `budgets`, it applies to every stored budget.',
  })
  @IsOptionalNonNull()
  @IsBoolean()
  calendar_aligned?: boolean;
}

@ApiSchema({ name: 'ProviderGovernance' })
export class ProviderGovernanceDto {
  @ApiProperty({ ...PROVIDER_ID_SCHEMA })
  provider: ProviderId;

  @ApiProperty()
  calendar_aligned: boolean;

  @ApiProperty({ type: [BudgetViewDto] })
  budgets: BudgetViewDto[];

  @ApiProperty({ type: RateLimitViewDto, nullable: true })
  rate_limit: RateLimitViewDto | null;

  @ApiProperty({ format: 'date-time' })
  created_at: string;

  @ApiProperty({ format: 'date-time' })
  updated_at: string;
}

@ApiSchema({ name: 'ProviderGovernanceList' })
export class ProviderGovernanceListDto {
  @ApiProperty({ type: [ProviderGovernanceDto] })
  providers: ProviderGovernanceDto[];

  @ApiProperty()
  count: number;
}

@ApiSchema({ name: 'ProviderGovernanceOperationResponse' })
export class ProviderGovernanceOperationDto {
  @ApiProperty()
  message: string;

  @ApiProperty({ type: ProviderGovernanceDto })
  provider: ProviderGovernanceDto;
}
