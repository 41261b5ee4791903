import { ALL_PERMISSIONS, parsePermission, type PermissionPair } from '../../../core/auth/permissions.js';

/** Resources a developer may not touch at all, and single permissions withheld (decisions.md, RBAC). */
const DEVELOPER_EXCLUDED_RESOURCES = new Set(['RBAC', 'Users', 'APIKeys', 'AuditLogs']);
const DEVELOPER_EXCLUDED_PERMISSIONS = new Set(['Settings:Update']);

export interface BuiltinRole {
  id: string;
  name: string;
  description: string;
  /** Computed from the resource list, so a resource added later reaches the built-in roles without a data migration. */
  permissions(): PermissionPair[];
}

function pairs(filter: (permission: string) => boolean): PermissionPair[] {
  return ALL_PERMISSIONS.filter(filter).map((p) => parsePermission(p) as PermissionPair);
}

/** Fixed ids, seeded by the migration (rows only: their permissions come from here). */
export const BUILTIN_ROLES: readonly BuiltinRole[] = [
  {
    id: '00000000-0000-4000-8000-000000000001',
    name: 'admin',
    description: 'Every permission',
    permissions: () => pairs(() => true),
  },
  {
    id: '00000000-0000-4000-8000-000000000002',
    name: 'developer',
    description: 'Everything except RBAC, users, management API keys, audit logs and changing settings',
    permissions: () =>
      pairs((p) => !DEVELOPER_EXCLUDED_RESOURCES.has(p.split(':')[0] ?? '') && !DEVELOPER_EXCLUDED_PERMISSIONS.has(p)),
  },
  {
    id: '00000000-0000-4000-8000-000000000003',
    name: 'viewer',
    description: 'Read-only access to everything',
    permissions: () => pairs((p) => p.endsWith(':View')),
  },
];

export const BUILTIN_ROLE_BY_ID = new Map(BUILTIN_ROLES.map((r) => [r.id, r]));
