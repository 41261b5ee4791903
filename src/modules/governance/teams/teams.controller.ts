import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { EnterpriseOnly, Permission } from '../../../core/auth/route-access.decorator.js';
import { ApiErrorResponses } from '../../../core/errors/api-errors.decorator.js';
import { MessageResponseDto } from '../../../core/http/message-response.dto.js';
import { CustomerListDto } from '../customers/dto/customer.dto.js';
import { CustomersService } from '../customers/customers.service.js';
import {
  CreateTeamDto,
  LinkCustomerDto,
  TeamDto,
  TeamListDto,
  TeamOperationDto,
  UpdateTeamDto,
} from './dto/team.dto.js';
import { TeamsService } from './teams.service.js';

export const CUSTOMER_DETACHED = 'Customer detached from team';

@ApiTags('Teams')
@Controller('api/governance/teams')
export class TeamsController {
  constructor(
    private readonly teams: TeamsService,
    private readonly customers: CustomersService,
  ) {}

  @Get()
  @Permission('Teams', 'View')
  @ApiOperation({ operationId: 'listTeams', summary: 'List teams with their budgets and rate limits' })
  @ApiOkResponse({ type: TeamListDto })
  async list(): Promise<TeamListDto> {
    const teams = await this.teams.list();
    return { teams, count: teams.length };
  }

  @Post()
  @HttpCode(201)
  @Permission('Teams', 'Create')
  @ApiOperation({ operationId: 'createTeam', summary: 'Create a team' })
  @ApiCreatedResponse({ type: TeamOperationDto })
  @ApiErrorResponses(409)
  async create(@Body() dto: CreateTeamDto): Promise<TeamOperationDto> {
    const { id } = await this.teams.create(dto);
    return { message: 'Team created successfully', team: await this.teams.get(id) };
  }

  @Get(':team_id')
  @Permission('Teams', 'View')
  @ApiOperation({ operationId: 'getTeam', summary: 'Get a team' })
  @ApiOkResponse({ type: TeamDto })
  @ApiErrorResponses(404)
  get(@Param('team_id') id: string): Promise<TeamDto> {
    return this.teams.get(id);
  }

  @Put(':team_id')
  @Permission('Teams', 'Update')
  @ApiOperation({
    operationId: 'updateTeam',
    summary: 'Update a team',
    description:
      'Changes the fields it carries: `budgets` replaces the list, `rate_limit: null` removes it, `reset_usage: true` zeroes the usage of its budgets and rate limit.',
  })
  @ApiOkResponse({ type: TeamOperationDto })
  @ApiErrorResponses(404, 409)
  async update(@Param('team_id') id: string, @Body() dto: UpdateTeamDto): Promise<TeamOperationDto> {
    await this.teams.update(id, dto);
    return { message: 'Team updated successfully', team: await this.teams.get(id) };
  }

  @Delete(':team_id')
  @Permission('Teams', 'Delete')
  @ApiOperation({
    operationId: 'deleteTeam',
    summary: 'Delete a team',
    description: 'Its budgets, rate limit and customer links go with it; its virtual keys stay, without a team.',
  })
  @ApiOkResponse({ type: MessageResponseDto })
  @ApiErrorResponses(404)
  async delete(@Param('team_id') id: string): Promise<MessageResponseDto> {
    await this.teams.delete(id);
    return { message: 'Team deleted successfully' };
  }

  @Get(':team_id/customers')
  @Permission('Teams', 'View')
  @EnterpriseOnly()
  @ApiOperation({ operationId: 'listTeamCustomers', summary: 'Customers linked to a team' })
  @ApiOkResponse({ type: CustomerListDto })
  @ApiErrorResponses(404)
  async listCustomers(@Param('team_id') id: string): Promise<CustomerListDto> {
    const ids = await this.teams.customerIdsOf(id);
    const customers = await Promise.all(ids.map((cid) => this.customers.getView(cid)));
    return { customers, count: customers.length };
  }

  @Post(':team_id/customers')
  @HttpCode(200)
  @Permission('Teams', 'Update')
  @EnterpriseOnly()
  @ApiOperation({
    operationId: 'linkTeamCustomer',
    summary: 'Link a customer to a team',
    description: 'The team’s virtual keys are then covered by the customer’s budgets and rate limit as well.',
  })
  @ApiOkResponse({ type: TeamOperationDto })
  @ApiErrorResponses(404, 409)
  async link(@Param('team_id') id: string, @Body() dto: LinkCustomerDto): Promise<TeamOperationDto> {
    return { message: 'Customer attached to team', team: await this.teams.link(id, dto.customer_id) };
  }

  @Delete(':team_id/customers/:customer_id')
  @Permission('Teams', 'Update')
  @EnterpriseOnly()
  @ApiOperation({ operationId: 'unlinkTeamCustomer', summary: 'Detach a customer from a team' })
  @ApiOkResponse({ type: MessageResponseDto })
  @ApiErrorResponses(404)
  async unlink(@Param('team_id') id: string, @Param('customer_id') customerId: string): Promise<MessageResponseDto> {
    await this.teams.unlink(id, customerId);
    return { message: CUSTOMER_DETACHED };
  }
}
