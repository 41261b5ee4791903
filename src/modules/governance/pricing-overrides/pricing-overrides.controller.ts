import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Permission } from '../../../core/auth/route-access.decorator.js';
import { ApiErrorResponses } from '../../../core/errors/api-errors.decorator.js';
import { MessageResponseDto } from '../../../core/http/message-response.dto.js';
import {
  CreatePricingOverrideDto,
  PricingOverrideDto,
  PricingOverrideListDto,
  PricingOverrideOperationDto,
  PricingOverrideQueryDto,
  UpdatePricingOverrideDto,
} from './dto/pricing-override.dto.js';
import { PricingOverridesService } from './pricing-overrides.service.js';

@ApiTags('Pricing overrides')
@Controller('api/governance/pricing-overrides')
export class PricingOverridesController {
  constructor(private readonly overrides: PricingOverridesService) {}

  @Get()
  @Permission('Governance', 'View')
  @ApiOperation({ operationId: 'listPricingOverrides', summary: 'List pricing overrides (newest first, paged)' })
  @ApiOkResponse({ type: PricingOverrideListDto })
  list(@Query() query: PricingOverrideQueryDto): Promise<PricingOverrideListDto> {
    return this.overrides.list(query);
  }

  @Post()
  @HttpCode(201)
  @Permission('Governance', 'Create')
  @ApiOperation({ operationId: 'createPricingOverride', summary: 'Create a pricing override' })
  @ApiCreatedResponse({ type: PricingOverrideOperationDto })
  async create(@Body() dto: CreatePricingOverrideDto): Promise<PricingOverrideOperationDto> {
    const pricing_override = PricingOverridesService.toView(await this.overrides.create(dto));
    return { message: 'Pricing override created successfully', pricing_override };
  }

  @Get(':id')
  @Permission('Governance', 'View')
  @ApiOperation({ operationId: 'getPricingOverride', summary: 'Get a pricing override' })
  @ApiOkResponse({ type: PricingOverrideDto })
  @ApiErrorResponses(404)
  async get(@Param('id') id: string): Promise<PricingOverrideDto> {
    return PricingOverridesService.toView(await this.overrides.get(id));
  }

  @Put(':id')
  @Permission('Governance', 'Update')
  @ApiOperation({ operationId: 'updatePricingOverride', summary: 'Update a pricing override (the fields sent)' })
  @ApiOkResponse({ type: PricingOverrideOperationDto })
  @ApiErrorResponses(404)
  async update(@Param('id') id: string, @Body() dto: UpdatePricingOverrideDto): Promise<PricingOverrideOperationDto> {
    const pricing_override = PricingOverridesService.toView(await this.overrides.update(id, dto));
    return { message: 'Pricing override updated successfully', pricing_override };
  }

  @Delete(':id')
  @Permission('Governance', 'Delete')
  @ApiOperation({ operationId: 'deletePricingOverride', summary: 'Delete a pricing override' })
  @ApiOkResponse({ type: MessageResponseDto })
  @ApiErrorResponses(404)
  async delete(@Param('id') id: string): Promise<MessageResponseDto> {
    await this.overrides.delete(id);
    return { message: 'Pricing override deleted successfully' };
  }
}
