import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { CustomerEntity } from '../objects/entities/customer.entity.js';
import { LimitsStore } from '../objects/limits.store.js';
import { NamedOwnersService } from '../objects/named-owners.service.js';
import { GovernancePoliciesService } from '../policies/governance-policies.service.js';
import { VirtualKeyCache } from '../virtual-keys/virtual-key-cache.js';

/** Customers: their keys, and those of every team linked to them, are covered by their budgets and rate limit. */
@Injectable()
export class CustomersService extends NamedOwnersService<CustomerEntity> {
  constructor(
    @InjectDataSource() dataSource: DataSource,
    limits: LimitsStore,
    policies: GovernancePoliciesService,
    keys: VirtualKeyCache,
  ) {
    super(dataSource, limits, policies, keys, {
      entity: CustomerEntity,
      column: 'customer_id',
      resource: 'customer',
      label: 'Customer',
      nameConstraint: 'uq_customers_name',
    });
  }
}
