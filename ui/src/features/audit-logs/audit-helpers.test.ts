import { describe, expect, it } from 'vitest';
import { auditSearchOf, metadataText, readAuditSearch, screenOf } from './audit-helpers';

describe('screenOf', () => {
  it('links pricing overrides, model configs and provider limits to their tab of models and pricing', () => {
    expect(screenOf({ route: '/api/governance/pricing-overrides/:id', target_id: 'po-1' })).toEqual({
      to: '/models',
      search: { tab: 'overrides' },
      label: 'pricing override po-1',
    });
    expect(screenOf({ route: '/api/governance/model-configs', target_id: null })).toEqual({
      to: '/models',
      search: { tab: 'configs' },
      label: 'model configs',
    });
    expect(screenOf({ route: '/api/governance/providers/:provider', target_id: 'openai' })).toEqual({
      to: '/models',
      search: { tab: 'providers' },
      label: 'limits of provider openai',
    });
  });

  it('links a virtual key to its drawer, and the list when there is no key', () => {
    expect(screenOf({ route: '/api/governance/virtual-keys/:vk_id', target_id: 'vk-1' })).toEqual({
      to: '/virtual-keys',
      search: { key: 'vk-1' },
      label: 'virtual key vk-1',
    });
    expect(screenOf({ route: '/api/governance/virtual-keys', target_id: null })).toEqual({
      to: '/virtual-keys',
      label: 'virtual keys',
    });
  });

  it('links settings, plugins and the cache to their tabs', () => {
    expect(screenOf({ route: '/api/config', target_id: null })).toEqual({ to: '/settings', label: 'runtime config' });
    expect(screenOf({ route: '/api/plugins/:name', target_id: 'cache' })).toEqual({
      to: '/settings',
      search: { tab: 'plugins' },
      label: 'plugin cache',
    });
    expect(screenOf({ route: '/api/cache/clear/:request_id', target_id: 'r1' })?.search).toEqual({ tab: 'cache' });
  });

  it('opens a role in its drawer, and links users and management keys to their screens', () => {
    expect(screenOf({ route: '/api/governance/rbac/roles/:id', target_id: 'r1' })).toEqual({
      to: '/users',
      search: { tab: 'roles', role: 'r1' },
      label: 'role r1',
    });
    expect(screenOf({ route: '/api/governance/rbac/roles', target_id: null })?.search).toEqual({ tab: 'roles' });
    expect(screenOf({ route: '/api/governance/users/:id', target_id: 'u1' })).toEqual({
      to: '/users',
      label: 'user u1',
    });
    expect(screenOf({ route: '/api/governance/users/:user_id/access-profiles', target_id: 'u1' })).toBeUndefined();
    expect(screenOf({ route: '/api/management-keys/:id', target_id: 'k1' })).toEqual({
      to: '/management-keys',
      label: 'management key k1',
    });
  });

  it('opens a team, a customer, a webhook and an access profile on their screens', () => {
    expect(screenOf({ route: '/api/governance/teams/:team_id', target_id: 't1' })).toEqual({
      to: '/teams',
      search: { tab: 'teams', open: 't1' },
      label: 'team t1',
    });
    expect(screenOf({ route: '/api/governance/customers', target_id: null })?.search).toEqual({ tab: 'customers' });
    expect(screenOf({ route: '/api/webhooks/:id', target_id: 'w1' })?.search).toEqual({ webhook: 'w1' });
    expect(screenOf({ route: '/api/webhooks/deliveries/:id/redeliver', target_id: 'd1' })).toEqual({
      to: '/webhooks',
      label: 'webhooks',
    });
    expect(screenOf({ route: '/api/access-profiles/:profile_id', target_id: '7' })?.search).toEqual({ profile: '7' });
  });

  it('tells MCP clients from MCP tool logs, and knows no screen for other routes', () => {
    expect(screenOf({ route: '/api/mcp/client/:id', target_id: 'c1' })?.to).toBe('/mcp-clients');
    expect(screenOf({ route: '/api/mcp-logs', target_id: null })?.to).toBe('/mcp-logs');
    expect(screenOf({ route: '/api/agents/:name', target_id: 'a' })?.search).toEqual({ agent_names: 'a' });
    expect(screenOf({ route: '/api/session/logout', target_id: null })).toBeUndefined();
  });
});

describe('metadataText', () => {
  it('reads the changed keys of a config write, other metadata as JSON, none as nothing', () => {
    expect(metadataText({ changed_keys: ['logs.retention', 'mcp.max_agent_depth'] })).toBe(
      'changed logs.retention, mcp.max_agent_depth',
    );
    expect(metadataText({ done: 3 })).toBe('{"done":3}');
    expect(metadataText(null)).toBeUndefined();
    expect(metadataText({})).toBeUndefined();
  });
});

describe('the URL', () => {
  it('reads the API query and leaves defaults and blanks out', () => {
    expect(readAuditSearch({ method: 'PUT', status_code: '403', limit: '50', junk: 'x' })).toEqual({
      method: 'PUT',
      status_code: 403,
      limit: 50,
    });
    expect(auditSearchOf({ method: 'PUT', limit: 50, offset: 0, actor: undefined })).toEqual({ method: 'PUT' });
  });
});
