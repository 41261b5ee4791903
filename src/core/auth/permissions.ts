/** RBAC resources and operations (decisions.md, RBAC). A permission is the pair, written `Resource:Operation`. */
export const RESOURCES = [
  'Dashboard',
  'Settings',
  'ModelProvider',
  'Plugins',
  'VirtualKeys',
  'Teams',
  'Customers',
  'Users',
  'RBAC',
  'APIKeys',
  'Governance',
  'RoutingRules',
  'AccessProfiles',
  'Logs',
  'MCPLogs',
  'MCPGateway',
  'AgentGateway',
  'CircuitBreaker',
  'AuditLogs',
  'Cache',
  'Metrics',
  'Webhooks',
] as const;
export type Resource = (typeof RESOURCES)[number];

export const OPERATIONS = ['View', 'Create', 'Update', 'Delete'] as const;
export type Operation = (typeof OPERATIONS)[number];

export interface PermissionPair {
  resource: Resource;
  operation: Operation;
}

export function formatPermission(p: PermissionPair): string {
  return `${p.resource}:${p.operation}`;
}

/** Parses `Resource:Operation`; undefined when either half is unknown. */
export function parsePermission(value: string): PermissionPair | undefined {
  const [resource, operation, extra] = value.split(':');
  if (extra !== undefined) return undefined;
  if (!RESOURCES.includes(resource as Resource) || !OPERATIONS.includes(operation as Operation)) return undefined;
  return { resource: resource as Resource, operation: operation as Operation };
}

export const ALL_PERMISSIONS: readonly string[] = RESOURCES.flatMap((r) => OPERATIONS.map((o) => `${r}:${o}`));
