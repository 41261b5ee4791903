import {
  Body,
  Controller,
  createParamDecorator,
  Delete,
  Get,
  HttpCode,
  Param,
  Post,
  Put,
  type ExecutionContext,
} from '@nestjs/common';
import { ApiCreatedResponse, ApiExtraModels, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { EnterpriseOnly, Permission } from '../../core/auth/route-access.decorator.js';
import { ApiErrorResponses } from '../../core/errors/api-errors.decorator.js';
import { GatewayException } from '../../core/errors/gateway.exception.js';
import { AllowNulInPathParams } from '../../core/http/nul-check.js';
import { MessageResponseDto } from '../../core/http/message-response.dto.js';
import { CircuitStates } from './circuit-states.js';
import { CircuitBreakerService } from './circuit-breaker.service.js';
import {
  CircuitBreakerPolicyDto,
  CircuitBreakerPolicyListDto,
  CreateCircuitBreakerPolicyDto,
  ReplaceCircuitBreakerPolicyDto,
} from './dto/circuit-breaker-policy.dto.js';
import { CircuitStateDto, OpenCircuitDto } from './dto/circuit-state.dto.js';

const NAME_PARAM = { name: 'name', type: String, description: 'Policy name', example: 'openai-overload' };
const KEY_PARAM = {
  name: 'key',
  type: String,
  description:
    'Circuit key: a policy name, or `<policy name>%00<key id>` for a key’s sub-circuit (the NUL character URL-encoded)',
  example: 'openai-overload',
};

/**
 * The `{key}` path parameter as the router decoded it. A sub-circuit key holds a NUL character (`%00`), which the
 * NUL check and the global pipe refuse in every request value (none may reach the database); this key never reaches
 * it, so the route opts out of the check (AllowNulInPathParams) and the key is read here, past the pipe.
 */
export const CircuitKey = createParamDecorator((_data: unknown, ctx: ExecutionContext): string => {
  const params = ctx.switchToHttp().getRequest<FastifyRequest>().params as Record<string, string | undefined>;
  const key = params.key ?? '';
  if (key === '' || key.length > 1024) throw GatewayException.validation('key', 'key must be 1 to 1024 characters');
  return key;
});

@ApiTags('Circuit breakers')
@ApiExtraModels(OpenCircuitDto)
@Controller('api/circuit-breaker')
export class CircuitBreakerController {
  constructor(
    private readonly policies: CircuitBreakerService,
    private readonly states: CircuitStates,
  ) {}

  @Get('policies')
  @Permission('CircuitBreaker', 'View')
  @EnterpriseOnly()
  @ApiOperation({ operationId: 'listCircuitBreakerPolicies', summary: 'List circuit breaker policies by name' })
  @ApiOkResponse({ type: CircuitBreakerPolicyListDto })
  @ApiErrorResponses(404)
  async list(): Promise<CircuitBreakerPolicyListDto> {
    const policies = (await this.policies.list()).map((p) => CircuitBreakerService.toView(p));
    return { policies, count: policies.length };
  }

  @Post('policies')
  @HttpCode(201)
  @Permission('CircuitBreaker', 'Create')
  @EnterpriseOnly()
  @ApiOperation({
    operationId: 'createCircuitBreakerPolicy',
    summary: 'Create a circuit breaker policy',
    description: 'Answers the policy itself. A name already taken: 409 `already_exists`.',
  })
  @ApiCreatedResponse({ type: CircuitBreakerPolicyDto })
  @ApiErrorResponses(404, 409)
  async create(@Body() dto: CreateCircuitBreakerPolicyDto): Promise<CircuitBreakerPolicyDto> {
    return CircuitBreakerService.toView(await this.policies.create(dto));
  }

  @Get('policies/:name')
  @Permission('CircuitBreaker', 'View')
  @EnterpriseOnly()
  @ApiOperation({ operationId: 'getCircuitBreakerPolicy', summary: 'Get a circuit breaker policy' })
  @ApiParam(NAME_PARAM)
  @ApiOkResponse({ type: CircuitBreakerPolicyDto })
  @ApiErrorResponses(404)
  async get(@Param('name') name: string): Promise<CircuitBreakerPolicyDto> {
    return CircuitBreakerService.toView(await this.policies.get(name));
  }

  @Put('policies/:name')
  @Permission('CircuitBreaker', 'Update')
  @EnterpriseOnly()
  @ApiOperation({
    operationId: 'replaceCircuitBreakerPolicy',
    summary: 'Replace a circuit breaker policy',
    description:
      'The whole policy, as in a create; fields left out take their defaults. A body `name` must equal the path’s. Changing the primary provider, model or keys, or disabling the policy, closes its circuits.',
  })
  @ApiParam(NAME_PARAM)
  @ApiOkResponse({ type: CircuitBreakerPolicyDto })
  @ApiErrorResponses(404)
  async replace(
    @Param('name') name: string,
    @Body() dto: ReplaceCircuitBreakerPolicyDto,
  ): Promise<CircuitBreakerPolicyDto> {
    return CircuitBreakerService.toView(await this.policies.replace(name, dto));
  }

  @Delete('policies/:name')
  @Permission('CircuitBreaker', 'Delete')
  @EnterpriseOnly()
  @ApiOperation({ operationId: 'deleteCircuitBreakerPolicy', summary: 'Delete a policy and close its circuits' })
  @ApiParam(NAME_PARAM)
  @ApiOkResponse({ type: MessageResponseDto })
  @ApiErrorResponses(404)
  async delete(@Param('name') name: string): Promise<MessageResponseDto> {
    await this.policies.delete(name);
    return { message: 'Circuit breaker policy deleted successfully' };
  }

  @Get('state')
  @Permission('CircuitBreaker', 'View')
  @EnterpriseOnly()
  @ApiOperation({ operationId: 'getCircuitBreakerState', summary: 'The open circuits (closed ones are absent)' })
  @ApiOkResponse({ type: CircuitStateDto })
  @ApiErrorResponses(404)
  async state(): Promise<CircuitStateDto> {
    return { circuits: await this.states.list() };
  }

  @Delete('state/:key')
  @Permission('CircuitBreaker', 'Delete')
  @EnterpriseOnly()
  @ApiOperation({
    operationId: 'closeCircuit',
    summary: 'Close a circuit by hand',
    description: 'A circuit that is not open: 404 `circuit_not_found`.',
  })
  @ApiParam(KEY_PARAM)
  @AllowNulInPathParams('key')
  @ApiOkResponse({ type: MessageResponseDto })
  @ApiErrorResponses(404)
  async close(@CircuitKey() key: string): Promise<MessageResponseDto> {
    if (!(await this.states.close(key))) {
      throw GatewayException.notFound('circuit', `No open circuit with key ${JSON.stringify(key)}`);
    }
    return { message: 'Circuit closed' };
  }
}
