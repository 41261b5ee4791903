import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Permission } from '../../../core/auth/route-access.decorator.js';
import { ModelsQueryDto, ProviderModelListDto } from './dto/models.dto.js';
import { ModelListingService } from './model-listing.service.js';

@ApiTags('Providers')
@Controller('api/models')
export class ModelsController {
  constructor(private readonly listing: ModelListingService) {}

  @Get()
  @Permission('ModelProvider', 'View')
  @ApiOperation({
    operationId: 'listProviderModels',
    summary: 'Models of every configured provider, asked upstream on each enabled key',
    description:
      'Each enabled key lists its provider’s models; the union is returned once per `<provider>/<model>`. A key that fails appears in `key_statuses` with `list_models_failed` and its GatewayError; it never fails the call.',
  })
  @ApiOkResponse({ type: ProviderModelListDto })
  list(@Query() query: ModelsQueryDto): Promise<ProviderModelListDto> {
    return this.listing.list(query.provider);
  }
}
