import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { In, type DataSource } from 'typeorm';
import { GatewayException } from '../../../core/errors/gateway.exception.js';
import { isUniqueViolation } from '../../../core/persistence/db-errors.js';
import { CustomerEntity } from '../objects/entities/customer.entity.js';
import { TeamCustomerEntity } from '../objects/entities/team-customer.entity.js';
import { TeamEntity } from '../objects/entities/team.entity.js';
import { LimitsStore } from '../objects/limits.store.js';
import { NamedOwnersService, type NamedOwnerView } from '../objects/named-owners.service.js';
import { GovernancePoliciesService } from '../policies/governance-policies.service.js';
import { isId } from '../../../core/validation/ids.js';
import { VirtualKeyCache } from '../virtual-keys/virtual-key-cache.js';
import type { TeamDto } from './dto/team.dto.js';

/** Teams, and (enterprise) their links to customers. */
@Injectable()
export class TeamsService extends NamedOwnersService<TeamEntity> {
  constructor(
    @InjectDataSource() dataSource: DataSource,
    limits: LimitsStore,
    policies: GovernancePoliciesService,
    keys: VirtualKeyCache,
  ) {
    super(dataSource, limits, policies, keys, {
      entity: TeamEntity,
      column: 'team_id',
      resource: 'team',
      label: 'Team',
      nameConstraint: 'uq_teams_name',
    });
  }

  async list(): Promise<TeamDto[]> {
    return this.withCustomers(await this.listViews());
  }

  async get(id: string): Promise<TeamDto> {
    return (await this.withCustomers([await this.getView(id)]))[0]!;
  }

  /** Links a customer to a team; the team's keys are then charged to it too. */
  async link(teamId: string, customerId: string): Promise<TeamDto> {
    try {
      await this.dataSource.transaction(async (m) => {
        await this.find(teamId, m);
        if (!(await m.existsBy(CustomerEntity, { id: customerId }))) {
          throw GatewayException.validation('customer_id', `customer_id ${customerId} is not a known customer`);
        }
        await m.insert(TeamCustomerEntity, { team_id: teamId, customer_id: customerId });
      });
    } catch (error) {
      if (isUniqueViolation(error, 'pk_team_customers')) {
        throw GatewayException.conflict(`Customer ${customerId} is already linked to team ${teamId}`, 'customer_id');
      }
      throw error;
    }
    await this.policies.invalidate();
    return this.get(teamId);
  }

  async unlink(teamId: string, customerId: string): Promise<void> {
    await this.dataSource.transaction(async (m) => {
      await this.find(teamId, m);
      const result = isId(customerId)
        ? await m.delete(TeamCustomerEntity, { team_id: teamId, customer_id: customerId })
        : { affected: 0 };
      if (!result.affected) {
        throw GatewayException.notFound('customer', `Customer ${customerId} is not linked to team ${teamId}`);
      }
    });
    await this.policies.invalidate();
  }

  /** The customer ids linked to the team. */
  async customerIdsOf(teamId: string): Promise<string[]> {
    await this.find(teamId);
    const links = await this.dataSource.manager.find(TeamCustomerEntity, {
      where: { team_id: teamId },
      order: { created_at: 'ASC', customer_id: 'ASC' },
    });
    return links.map((l) => l.customer_id);
  }

  /** The teams linked to a customer (the customer's existence is the caller's check). */
  async teamsOfCustomer(customerId: string): Promise<TeamDto[]> {
    const links = await this.dataSource.manager.find(TeamCustomerEntity, { where: { customer_id: customerId } });
    if (!links.length) return [];
    const teams = await this.dataSource.manager.find(TeamEntity, {
      where: { id: In(links.map((l) => l.team_id)) },
      order: { name: 'ASC', id: 'ASC' },
    });
    return this.withCustomers(await this.views(teams));
  }

  private async withCustomers(views: NamedOwnerView[]): Promise<TeamDto[]> {
    const links = views.length
      ? await this.dataSource.manager.find(TeamCustomerEntity, {
          where: { team_id: In(views.map((v) => v.id)) },
          order: { created_at: 'ASC', customer_id: 'ASC' },
        })
      : [];
    return views.map((v) => ({
      ...v,
      customer_ids: links.filter((l) => l.team_id === v.id).map((l) => l.customer_id),
    }));
  }
}
