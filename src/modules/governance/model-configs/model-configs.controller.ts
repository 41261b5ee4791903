import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Permission } from '../../../core/auth/route-access.decorator.js';
import { ApiErrorResponses } from '../../../core/errors/api-errors.decorator.js';
import { MessageResponseDto } from '../../../core/http/message-response.dto.js';
import {
  CreateModelConfigDto,
  ModelConfigDto,
  ModelConfigListDto,
  ModelConfigOperationDto,
  UpdateModelConfigDto,
} from './model-config.dto.js';
import { ModelConfigsService } from './model-configs.service.js';

@ApiTags('Model configs')
@Controller('api/governance/model-configs')
export class ModelConfigsController {
  constructor(private readonly configs: ModelConfigsService) {}

  @Get()
  @Permission('Governance', 'View')
  @ApiOperation({ operationId: 'listModelConfigs', summary: 'List model configs with their budgets and rate limits' })
  @ApiOkResponse({ type: ModelConfigListDto })
  async list(): Promise<ModelConfigListDto> {
    const model_configs = await this.configs.list();
    return { model_configs, count: model_configs.length };
  }

  @Post()
  @HttpCode(201)
  @Permission('Governance', 'Create')
  @ApiOperation({
    operationId: 'createModelConfig',
    summary: 'Create a model config',
    description:
      'Budgets and a rate limit over one model (`*`: every model), on one provider or all, for everyone (`global`), one virtual key or one user. Every matching config applies, model-only and model-with-provider alike.',
  })
  @ApiCreatedResponse({ type: ModelConfigOperationDto })
  @ApiErrorResponses(409)
  async create(@Body() dto: CreateModelConfigDto): Promise<ModelConfigOperationDto> {
    return { message: 'Model config created successfully', model_config: await this.configs.create(dto) };
  }

  @Get(':mc_id')
  @Permission('Governance', 'View')
  @ApiOperation({ operationId: 'getModelConfig', summary: 'Get a model config' })
  @ApiOkResponse({ type: ModelConfigDto })
  @ApiErrorResponses(404)
  get(@Param('mc_id') id: string): Promise<ModelConfigDto> {
    return this.configs.get(id);
  }

  @Put(':mc_id')
  @Permission('Governance', 'Update')
  @ApiOperation({
    operationId: 'updateModelConfig',
    summary: 'Update a model config',
    description:
      '`budgets` replaces the list (`[]` removes), `rate_limit: null` removes it, `reset_usage` zeroes usage.',
  })
  @ApiOkResponse({ type: ModelConfigOperationDto })
  @ApiErrorResponses(404, 409)
  async update(@Param('mc_id') id: string, @Body() dto: UpdateModelConfigDto): Promise<ModelConfigOperationDto> {
    return { message: 'Model config updated successfully', model_config: await this.configs.update(id, dto) };
  }

  @Delete(':mc_id')
  @Permission('Governance', 'Delete')
  @ApiOperation({ operationId: 'deleteModelConfig', summary: 'Delete a model config' })
  @ApiOkResponse({ type: MessageResponseDto })
  @ApiErrorResponses(404)
  async delete(@Param('mc_id') id: string): Promise<MessageResponseDto> {
    await this.configs.delete(id);
    return { message: 'Model config deleted successfully' };
  }
}
