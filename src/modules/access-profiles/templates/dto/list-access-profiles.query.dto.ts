import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { PageQueryDto } from '../../../../core/http/paging.dto.js';
import { BooleanQuery } from '../../../../core/validation/integer-query.decorator.js';
import { CommaListQuery, SearchQuery } from '../../../../core/validation/list-query.decorators.js';
import { AccessProfileDto } from './access-profile.dto.js';

/** `GET /api/governance/access-profiles`: filters and paging (decisions.md, Lists). */
export class ListAccessProfilesQueryDto extends PageQueryDto {
  @SearchQuery('Case-insensitive substring of the name or the description')
  search?: string;

  @CommaListQuery('Comma-separated tags: a template matches when it carries any of them (exact, case-sensitive)', 'a,b')
  tags?: string;

  @BooleanQuery('Only active (true) or inactive (false) templates')
  is_active?: boolean;
}

@ApiSchema({ name: 'AccessProfileList' })
export class AccessProfileListDto {
  @ApiProperty({ type: [AccessProfileDto], description: 'This page, by id' })
  access_profiles: AccessProfileDto[];

  @ApiProperty({ type: 'integer', description: 'Items on this page' })
  count: number;

  @ApiProperty({ type: 'integer', description: 'Items matching the filters, across all pages' })
  total_count: number;

  @ApiProperty({ type: 'integer' })
  limit: number;

  @ApiProperty({ type: 'integer' })
  offset: number;
}
