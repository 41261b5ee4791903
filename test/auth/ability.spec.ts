import { describe, expect, it } from 'vitest';
import { buildAbility } from '../../src/core/auth/ability.factory.js';
import type { Principal } from '../../src/core/auth/principal.js';

function principal(permissions: Principal['permissions']): Principal {
  return { kind: 'management_key', authMethod: 'management_key', permissions };
}

describe('CASL ability', () => {
  it('grants exactly the (operation, resource) pairs held', () => {
    const ability = buildAbility(principal(new Set(['AgentGateway:View', 'Logs:Delete'])));
    expect(ability.can('View', 'AgentGateway')).toBe(true);
    expect(ability.can('Delete', 'Logs')).toBe(true);
    expect(ability.can('Create', 'AgentGateway')).toBe(false);
    expect(ability.can('View', 'Logs')).toBe(false);
    expect(ability.can('View', 'Dashboard')).toBe(false);
  });

  it('unknown or malformed permission strings grant nothing', () => {
    const ability = buildAbility(
      principal(new Set(['AgentGateway:View:Extra', 'agentgateway:view', 'Nope:View', 'AgentGateway', '*', 'manage'])),
    );
    expect(ability.rules).toEqual([]);
    expect(ability.can('View', 'AgentGateway')).toBe(false);
  });

  it("'all' (the local admin) can do everything", () => {
    const ability = buildAbility(principal('all'));
    expect(ability.can('Delete', 'RBAC')).toBe(true);
    expect(ability.can('View', 'AuditLogs')).toBe(true);
  });
});
