import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Permission } from '../../../core/auth/route-access.decorator.js';
import { ApiErrorResponses } from '../../../core/errors/api-errors.decorator.js';
import { MessageResponseDto } from '../../../core/http/message-response.dto.js';
import {
  CreateRoutingRuleDto,
  RoutingRuleDto,
  RoutingRuleListDto,
  RoutingRuleOperationDto,
  RoutingRuleQueryDto,
  RoutingRuleTryResultDto,
  RoutingRuleValidationDto,
  TryRoutingRulesDto,
  UpdateRoutingRuleDto,
  ValidateRoutingRuleDto,
} from './dto/routing-rule.dto.js';
import { RoutingRulesService } from './routing-rules.service.js';

@ApiTags('Routing rules')
@Controller('api/governance/routing-rules')
export class RoutingRulesController {
  constructor(private readonly rules: RoutingRulesService) {}

  @Get()
  @Permission('RoutingRules', 'View')
  @ApiOperation({ operationId: 'listRoutingRules', summary: 'List routing rules in evaluation order' })
  @ApiOkResponse({ type: RoutingRuleListDto })
  async list(@Query() query: RoutingRuleQueryDto): Promise<RoutingRuleListDto> {
    const rules = (await this.rules.list(query)).map((r) => RoutingRulesService.toView(r));
    return { rules, count: rules.length };
  }

  @Post()
  @HttpCode(201)
  @Permission('RoutingRules', 'Create')
  @ApiOperation({
    operationId: 'createRoutingRule',
    summary: 'Create a routing rule (its CEL expression must compile)',
  })
  @ApiCreatedResponse({ type: RoutingRuleOperationDto })
  @ApiErrorResponses(409)
  async create(@Body() dto: CreateRoutingRuleDto): Promise<RoutingRuleOperationDto> {
    const rule = RoutingRulesService.toView(await this.rules.create(dto));
    return { message: 'Routing rule created successfully', rule };
  }

  @Post('validate')
  @HttpCode(200)
  @Permission('RoutingRules', 'View')
  @ApiOperation({
    operationId: 'validateRoutingRuleExpression',
    summary: 'Check a CEL expression as a create would, without writing; says where the problem is',
  })
  @ApiOkResponse({ type: RoutingRuleValidationDto })
  validate(@Body() dto: ValidateRoutingRuleDto): Promise<RoutingRuleValidationDto> {
    return RoutingRulesService.validate(dto.cel_expression);
  }

  @Post('try')
  @HttpCode(200)
  @Permission('RoutingRules', 'View')
  @ApiOperation({
    operationId: 'tryRoutingRules',
    summary: 'Evaluate the enabled rules against a sample request: the rules that match and the provider/model chain',
  })
  @ApiOkResponse({ type: RoutingRuleTryResultDto })
  async try(@Body() dto: TryRoutingRulesDto): Promise<RoutingRuleTryResultDto> {
    return this.rules.try(dto);
  }

  @Get(':rule_id')
  @Permission('RoutingRules', 'View')
  @ApiOperation({ operationId: 'getRoutingRule', summary: 'Get a routing rule' })
  @ApiOkResponse({ type: RoutingRuleDto })
  @ApiErrorResponses(404)
  async get(@Param('rule_id') id: string): Promise<RoutingRuleDto> {
    return RoutingRulesService.toView(await this.rules.get(id));
  }

  @Put(':rule_id')
  @Permission('RoutingRules', 'Update')
  @ApiOperation({ operationId: 'updateRoutingRule', summary: 'Update a routing rule (the fields sent)' })
  @ApiOkResponse({ type: RoutingRuleOperationDto })
  @ApiErrorResponses(404, 409)
  async update(@Param('rule_id') id: string, @Body() dto: UpdateRoutingRuleDto): Promise<RoutingRuleOperationDto> {
    const rule = RoutingRulesService.toView(await this.rules.update(id, dto));
    return { message: 'Routing rule updated successfully', rule };
  }

  @Delete(':rule_id')
  @Permission('RoutingRules', 'Delete')
  @ApiOperation({ operationId: 'deleteRoutingRule', summary: 'Delete a routing rule' })
  @ApiOkResponse({ type: MessageResponseDto })
  @ApiErrorResponses(404)
  async delete(@Param('rule_id') id: string): Promise<MessageResponseDto> {
    await this.rules.delete(id);
    return { message: 'Routing rule deleted successfully' };
  }
}
