import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { IsOptionalNonNull } from '../../../../core/validation/field.decorators.js';
import { BudgetViewDto, RateLimitViewDto } from '../../objects/dto/limits.dto.js';
import { OwnerLimitsInputDto, OwnerLimitsUpdateDto } from '../../objects/dto/owner-input.dto.js';

@ApiSchema({ name: 'CustomerCreateRequest' })
export class CreateCustomerDto extends OwnerLimitsInputDto {
  @ApiProperty({ description: 'Unique name', maxLength: 255, example: 'acme' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  name: string;
}

/** PUT changes the fields it carries. */
@ApiSchema({ name: 'CustomerUpdateRequest' })
export class UpdateCustomerDto extends OwnerLimitsUpdateDto {
  @ApiPropertyOptional({ maxLength: 255 })
  @IsOptionalNonNull()
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  name?: string;
}

@ApiSchema({ name: 'Customer' })
export class CustomerDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty()
  name: string;

  @ApiProperty({ type: [BudgetViewDto] })
  budgets: BudgetViewDto[];

  @ApiProperty({ type: RateLimitViewDto, nullable: true })
  rate_limit: RateLimitViewDto | null;

  @ApiProperty({ format: 'date-time' })
  created_at: string;

  @ApiProperty({ format: 'date-time' })
  updated_at: string;
}

@ApiSchema({ name: 'CustomerOperationResponse' })
export class CustomerOperationDto {
  @ApiProperty()
  message: string;

  @ApiProperty({ type: CustomerDto })
  customer: CustomerDto;
}

@ApiSchema({ name: 'CustomerList' })
export class CustomerListDto {
  @ApiProperty({ type: [CustomerDto] })
  customers: CustomerDto[];

  @ApiProperty()
  count: number;
}
