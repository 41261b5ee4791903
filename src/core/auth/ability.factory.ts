import { createMongoAbility, type MongoAbility } from '@casl/ability';
import { parsePermission, type Operation, type Resource } from './permissions.js';
import type { Principal } from './principal.js';

export type GatewayAbility = MongoAbility<[Operation, Resource]>;

/**
 * Builds the CASL ability of a principal, once per request. Permissions are kept as (action, subject) pairs: the
 * `Resource:Operation` strings are parsed here and never matched as merged strings. Unknown strings grant nothing.
 */
export function buildAbility(principal: Principal): GatewayAbility {
  if (principal.permissions === 'all') {
    return createMongoAbility<[Operation, Resource]>([{ action: 'manage' as Operation, subject: 'all' as Resource }]);
  }
  const rules: Array<{ action: Operation; subject: Resource }> = [];
  for (const permission of principal.permissions) {
    const pair = parsePermission(permission);
    if (pair) rules.push({ action: pair.operation, subject: pair.resource });
  }
  return createMongoAbility<[Operation, Resource]>(rules);
}
