import { SearchQuery } from '../../../../core/validation/list-query.decorators.js';
import { PagingQueryDto } from '../../shared/paging-query.dto.js';

/** `GET /api/governance/virtual-keys`: paging, sorting and a search by name. */
export class ListVirtualKeysQueryDto extends PagingQueryDto {
  @SearchQuery('Case-insensitive substring of the name')
  search?: string;
}
