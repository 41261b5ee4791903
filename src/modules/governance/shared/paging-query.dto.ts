import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { PageQueryDto } from '../../../core/http/paging.dto.js';
import { IsOptionalNonNull } from '../../../core/validation/field.decorators.js';

/** Paging plus the sort options of the governance lists. */
export class PagingQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: ['created_at', 'name'], default: 'created_at', description: 'Field to sort by' })
  @IsOptionalNonNull()
  @IsIn(['created_at', 'name'])
  sort_by?: 'created_at' | 'name';

  @ApiPropertyOptional({ enum: ['asc', 'desc'], default: 'desc', description: 'Sort order' })
  @IsOptionalNonNull()
  @IsIn(['asc', 'desc'])
  order?: 'asc' | 'desc';
}
