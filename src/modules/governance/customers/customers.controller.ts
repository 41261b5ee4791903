import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { EnterpriseOnly, Permission } from '../../../core/auth/route-access.decorator.js';
import { ApiErrorResponses } from '../../../core/errors/api-errors.decorator.js';
import { MessageResponseDto } from '../../../core/http/message-response.dto.js';
import { TeamListDto } from '../teams/dto/team.dto.js';
import { TeamsService } from '../teams/teams.service.js';
import { CustomersService } from './customers.service.js';
import {
  CreateCustomerDto,
  CustomerDto,
  CustomerListDto,
  CustomerOperationDto,
  UpdateCustomerDto,
} from './dto/customer.dto.js';

@ApiTags('Customers')
@Controller('api/governance/customers')
export class CustomersController {
  constructor(
    private readonly customers: CustomersService,
    private readonly teams: TeamsService,
  ) {}

  @Get()
  @Permission('Customers', 'View')
  @ApiOperation({ operationId: 'listCustomers', summary: 'List customers with their budgets and rate limits' })
  @ApiOkResponse({ type: CustomerListDto })
  async list(): Promise<CustomerListDto> {
    const customers = await this.customers.listViews();
    return { customers, count: customers.length };
  }

  @Post()
  @HttpCode(201)
  @Permission('Customers', 'Create')
  @ApiOperation({ operationId: 'createCustomer', summary: 'Create a customer' })
  @ApiCreatedResponse({ type: CustomerOperationDto })
  @ApiErrorResponses(409)
  async create(@Body() dto: CreateCustomerDto): Promise<CustomerOperationDto> {
    return { message: 'Customer created successfully', customer: await this.customers.create(dto) };
  }

  @Get(':customer_id')
  @Permission('Customers', 'View')
  @ApiOperation({ operationId: 'getCustomer', summary: 'Get a customer' })
  @ApiOkResponse({ type: CustomerDto })
  @ApiErrorResponses(404)
  get(@Param('customer_id') id: string): Promise<CustomerDto> {
    return this.customers.getView(id);
  }

  @Put(':customer_id')
  @Permission('Customers', 'Update')
  @ApiOperation({
    operationId: 'updateCustomer',
    summary: 'Update a customer',
    description:
      'Changes the fields it carries: `budgets` replaces the list, `rate_limit: null` removes it, `reset_usage: true` zeroes the usage of its budgets and rate limit.',
  })
  @ApiOkResponse({ type: CustomerOperationDto })
  @ApiErrorResponses(404, 409)
  async update(@Param('customer_id') id: string, @Body() dto: UpdateCustomerDto): Promise<CustomerOperationDto> {
    return { message: 'Customer updated successfully', customer: await this.customers.update(id, dto) };
  }

  @Delete(':customer_id')
  @Permission('Customers', 'Delete')
  @ApiOperation({
    operationId: 'deleteCustomer',
    summary: 'Delete a customer',
    description: 'Its budgets, rate limit and team links go with it; its virtual keys stay, without a customer.',
  })
  @ApiOkResponse({ type: MessageResponseDto })
  @ApiErrorResponses(404)
  async delete(@Param('customer_id') id: string): Promise<MessageResponseDto> {
    await this.customers.delete(id);
    return { message: 'Customer deleted successfully' };
  }

  @Get(':customer_id/teams')
  @Permission('Customers', 'View')
  @EnterpriseOnly()
  @ApiOperation({ operationId: 'listCustomerTeams', summary: 'Teams linked to a customer' })
  @ApiOkResponse({ type: TeamListDto })
  @ApiErrorResponses(404)
  async listTeams(@Param('customer_id') id: string): Promise<TeamListDto> {
    await this.customers.find(id);
    const teams = await this.teams.teamsOfCustomer(id);
    return { teams, count: teams.length };
  }
}
