import { listAuditLogsQuery } from '../../api/constraints.gen';
import type { QueryOf, Schema } from '../../api/schemas';
import { compactSearch, readSearch } from '../../shared/url/search-params';

export type AuditEntry = Schema<'AuditLog'>;
export type AuditQuery = QueryOf<'listAuditLogs'>;

/** The API's paging defaults: left out of the URL. */
export const AUDIT_DEFAULTS = { limit: 50, offset: 0 } as const;

/** The route's `validateSearch`: `GET /api/audit-logs`'s query under its own names. */
export function readAuditSearch(raw: Record<string, unknown>): AuditQuery {
  return readSearch(raw, listAuditLogsQuery);
}

/** What goes into the URL: blanks and defaults left out. */
export function auditSearchOf(search: AuditQuery): AuditQuery {
  return compactSearch(search, AUDIT_DEFAULTS);
}

/** A dashboard screen (the router's path and search) where the object a write changed is shown. */
export interface ScreenLink {
  to: string;
  search?: Record<string, string>;
  label: string;
}

/**
 * Where the object an audited write changed is shown, from its route pattern and target id: a virtual key opens in
 * its drawer, a setting on the settings screen, a plugin on its tab; a route no screen shows: undefined.
 */
export function screenOf(entry: Pick<AuditEntry, 'route' | 'target_id'>): ScreenLink | undefined {
  const route = entry.route;
  const id = entry.target_id ?? undefined;
  const under = (prefix: string) => route === prefix || route.startsWith(`${prefix}/`);
  if (under('/api/governance/virtual-keys'))
    return id && !route.endsWith('/virtual-keys')
      ? { to: '/virtual-keys', search: { key: id }, label: `virtual key ${id}` }
      : { to: '/virtual-keys', label: 'virtual keys' };
  if (under('/api/config')) return { to: '/settings', label: 'runtime config' };
  if (under('/api/plugins'))
    return { to: '/settings', search: { tab: 'plugins' }, label: id ? `plugin ${id}` : 'plugins' };
  if (under('/api/cache')) return { to: '/settings', search: { tab: 'cache' }, label: 'response cache' };
  if (under('/api/providers') || under('/api/keys'))
    return { to: '/providers', label: id ? `provider ${id}` : 'providers' };
  if (under('/api/governance/routing-rules')) return { to: '/routing-rules', label: 'routing rules' };
  if (under('/api/mcp')) return { to: '/mcp-clients', label: 'MCP clients' };
  if (under('/api/circuit-breaker')) return { to: '/circuit-breakers', label: 'circuit breakers' };
  if (under('/api/governance/teams') || under('/api/governance/customers')) {
    const tab = under('/api/governance/teams') ? 'teams' : 'customers';
    const one = tab === 'teams' ? 'team' : 'customer';
    return id
      ? { to: '/teams', search: { tab, open: id }, label: `${one} ${id}` }
      : { to: '/teams', search: { tab }, label: tab };
  }
  if (under('/api/webhooks'))
    return id && route.startsWith('/api/webhooks/:')
      ? { to: '/webhooks', search: { webhook: id }, label: `webhook ${id}` }
      : { to: '/webhooks', label: 'webhooks' };
  if (under('/api/access-profiles') || under('/api/governance/access-profiles'))
    return id && /access-profiles\/:profile_id/.test(route)
      ? { to: '/access-profiles', search: { profile: id }, label: `access profile ${id}` }
      : { to: '/access-profiles', label: 'access profiles' };
  if (under('/api/agents'))
    return id && route.startsWith('/api/agents/:name')
      ? { to: '/agents', search: { agent_names: id }, label: `agent ${id}` }
      : { to: '/agents', label: 'agents' };
  if (under('/api/governance/rbac/roles'))
    return id && route.startsWith('/api/governance/rbac/roles/:')
      ? { to: '/users', search: { tab: 'roles', role: id }, label: `role ${id}` }
      : { to: '/users', search: { tab: 'roles' }, label: 'roles' };
  // A user's access profile copies are shown on the access profiles screen, not here.
  if (under('/api/governance/users') && !route.includes('/access-profiles'))
    return { to: '/users', label: id ? `user ${id}` : 'users' };
  if (under('/api/management-keys'))
    return { to: '/management-keys', label: id ? `management key ${id}` : 'management keys' };
  if (under('/api/governance/pricing-overrides'))
    return { to: '/models', search: { tab: 'overrides' }, label: id ? `pricing override ${id}` : 'pricing overrides' };
  if (under('/api/governance/model-configs'))
    return { to: '/models', search: { tab: 'configs' }, label: id ? `model config ${id}` : 'model configs' };
  if (under('/api/governance/providers'))
    return { to: '/models', search: { tab: 'providers' }, label: id ? `limits of provider ${id}` : 'provider limits' };
  if (under('/api/logs')) return { to: '/logs', label: 'request logs' };
  if (under('/api/mcp-logs')) return { to: '/mcp-logs', label: 'MCP tool logs' };
  return undefined;
}

/** What the write adds, in one line: the keys a config change asked for, or the metadata as JSON. */
export function metadataText(metadata: AuditEntry['metadata']): string | undefined {
  if (!metadata || Object.keys(metadata).length === 0) return undefined;
  const keys = metadata.changed_keys;
  if (Array.isArray(keys)) return `changed ${keys.map(String).join(', ')}`;
  return JSON.stringify(metadata);
}
