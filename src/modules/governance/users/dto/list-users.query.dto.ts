import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsUUID } from 'class-validator';
import { MAX_PAGE_OFFSET, MAX_PAGE_SIZE } from '../../../../core/http/paging.dto.js';
import { IntegerQuery } from '../../../../core/validation/integer-query.decorator.js';
import { IsOptionalNonNull } from '../../../../core/validation/field.decorators.js';
import { SearchQuery } from '../../../../core/validation/list-query.decorators.js';

/**
 * `GET /api/governance/users`: a page of users, oldest first, optionally matching a search or holding one role.
 * Without `limit` the list is whole, as it was before paging existed (scripts that read every user keep working).
 */
export class ListUsersQueryDto {
  @IntegerQuery({ minimum: 1, maximum: MAX_PAGE_SIZE, description: 'Page size; absent: every matching user' })
  limit?: number;

  @IntegerQuery({ minimum: 0, maximum: MAX_PAGE_OFFSET, default: 0, description: 'Number of users to skip' })
  offset?: number;

  @SearchQuery('Case-insensitive substring of the name or the email')
  search?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'Only the holders of this role' })
  @IsOptionalNonNull()
  @IsUUID('all', { message: 'role_id must be a UUID' })
  role_id?: string;
}
