import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Permission } from '../../core/auth/route-access.decorator.js';
import { ApiErrorResponses } from '../../core/errors/api-errors.decorator.js';
import { AgentErrorFields } from './data-plane/a2a-errors.js';
import { AgentsService } from './agents.service.js';
import { AgentInspectionDto, AgentListDto, AgentRegistrationViewDto } from './dto/agent-view.dto.js';
import { CreateAgentDto, InspectAgentDto, UpdateAgentDto } from './dto/create-agent.dto.js';

const NAME_PARAM = { name: 'name', description: 'Agent registration name.', example: 'travel-planner' };

@ApiTags('Agents')
@Controller('api/agents')
@AgentErrorFields()
export class AgentsController {
  constructor(private readonly agents: AgentsService) {}

  @Post()
  @HttpCode(201)
  @Permission('AgentGateway', 'Create')
  @ApiOperation({
    operationId: 'registerAgent',
    summary: 'Register an upstream A2A v1 agent',
    description:
      'Fetches and validates the Agent Card at `agent_card_url` (when enabled) with the discovery auth, then stores the registration. Any fetch or card problem is a 400 with `param: agent_card_url`; nothing is saved.',
  })
  @ApiResponse({ status: 201, type: AgentRegistrationViewDto })
  @ApiErrorResponses(409)
  async create(@Body() body: CreateAgentDto): Promise<AgentRegistrationViewDto> {
    return this.agents.view(await this.agents.create(body));
  }

  @Post('inspect')
  @HttpCode(200)
  @Permission('AgentGateway', 'Create')
  @ApiOperation({
    operationId: 'inspectAgentCard',
    summary: 'Fetch and validate an Agent Card without registering it',
    description:
      'Returns the card with its proxyable interfaces, security schemes and requirements, and extensions, so a client can fill in `security_schemes` and `extension_uris`. Failures are 400 with `param: agent_card_url`.',
  })
  @ApiResponse({ status: 200, type: AgentInspectionDto })
  async inspect(@Body() body: InspectAgentDto): Promise<AgentInspectionDto> {
    return this.agents.inspect(body);
  }

  @Get()
  @Permission('AgentGateway', 'View')
  @ApiOperation({ operationId: 'listAgents', summary: 'List agent registrations' })
  @ApiResponse({ status: 200, type: AgentListDto })
  async list(): Promise<AgentListDto> {
    const agents = (await this.agents.list()).map((a) => this.agents.view(a));
    return { agents, count: agents.length };
  }

  @Get(':name')
  @Permission('AgentGateway', 'View')
  @ApiOperation({ operationId: 'getAgent', summary: 'Get an agent registration' })
  @ApiParam(NAME_PARAM)
  @ApiResponse({ status: 200, type: AgentRegistrationViewDto })
  @ApiErrorResponses(404)
  async get(@Param('name') name: string): Promise<AgentRegistrationViewDto> {
    return this.agents.view(await this.agents.get(name));
  }

  @Put(':name')
  @Permission('AgentGateway', 'Update')
  @ApiOperation({
    operationId: 'updateAgent',
    summary: 'Replace an agent registration',
    description:
      'Replaces the whole registration (omitted optional fields take their defaults). Secrets sent back as `<REDACTED>` keep their stored values. A body `name` must equal the path name.',
  })
  @ApiParam(NAME_PARAM)
  @ApiResponse({ status: 200, type: AgentRegistrationViewDto })
  @ApiErrorResponses(404)
  async update(@Param('name') name: string, @Body() body: UpdateAgentDto): Promise<AgentRegistrationViewDto> {
    return this.agents.view(await this.agents.update(name, body));
  }

  @Delete(':name')
  @HttpCode(204)
  @Permission('AgentGateway', 'Delete')
  @ApiOperation({ operationId: 'deleteAgent', summary: 'Delete an agent registration' })
  @ApiParam(NAME_PARAM)
  @ApiResponse({ status: 204, description: 'Deleted' })
  @ApiErrorResponses(404)
  async remove(@Param('name') name: string): Promise<void> {
    await this.agents.remove(name);
  }
}
