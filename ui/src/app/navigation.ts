import { IconDashboard, IconKey, IconListDetails, IconServer, IconTool, type Icon } from '../shared/ui/icons';
import { IconRoute } from '../shared/ui/icons';
import type { Permission } from '../shared/auth/permissions';
import { IconCircuitSwitchOpen, IconPlug } from '../shared/ui/icons';
import { IconHistory, IconSettings } from '../shared/ui/icons';
import { IconHourglass, IconWebhook } from '../shared/ui/icons';
import { IconUsersGroup } from '../shared/ui/icons';
import { IconUserShield } from '../shared/ui/icons';
import { IconRobot } from '../shared/ui/icons';
import { IconApi, IconUsers } from '../shared/ui/icons';
import { IconCoin } from '../shared/ui/icons';
import { IconStack2 } from '../shared/ui/icons';

export interface NavItem {
  /** The route's path (router.tsx). */
  to:
    | '/'
    | '/logs'
    | '/mcp-logs'
    | '/providers'
    | '/virtual-keys'
    | '/routing-rules'
    | '/mcp-clients'
    | '/mcp-tool-groups'
    | '/circuit-breakers'
    | '/webhooks'
    | '/async-jobs'
    | '/settings'
    | '/audit-logs'
    | '/teams'
    | '/access-profiles'
    | '/agents'
    | '/users'
    | '/management-keys'
    | '/models';
  label: string;
  icon: Icon;
  /** Hidden from callers without it (enterprise); the screen itself still shows the API's 403 on a direct link. */
  permission: Permission;
  /** Shown only in this edition (enterprise-only screens); the screen says so on a direct link. */
  edition?: 'enterprise';
}

/** The sidebar, in order. A new screen adds its entry here and its route in router.tsx (docs/dashboard.md). */
export const NAVIGATION: readonly NavItem[] = [
  { to: '/', label: 'Overview', icon: IconDashboard, permission: 'Dashboard:View' },
  { to: '/logs', label: 'Request logs', icon: IconListDetails, permission: 'Logs:View' },
  { to: '/mcp-logs', label: 'MCP tool logs', icon: IconTool, permission: 'MCPLogs:View' },
  { to: '/providers', label: 'Providers and keys', icon: IconServer, permission: 'ModelProvider:View' },
  { to: '/virtual-keys', label: 'Virtual keys', icon: IconKey, permission: 'VirtualKeys:View' },
  { to: '/teams', label: 'Teams and customers', icon: IconUsersGroup, permission: 'Teams:View' },
  { to: '/models', label: 'Models and pricing', icon: IconCoin, permission: 'Governance:View' },
  { to: '/routing-rules', label: 'Routing rules', icon: IconRoute, permission: 'RoutingRules:View' },
  { to: '/mcp-clients', label: 'MCP clients', icon: IconPlug, permission: 'MCPGateway:View' },
  { to: '/mcp-tool-groups', label: 'MCP tool groups', icon: IconStack2, permission: 'MCPGateway:View' },
  { to: '/agents', label: 'Agents', icon: IconRobot, permission: 'AgentGateway:View' },
  {
    to: '/circuit-breakers',
    label: 'Circuit breakers',
    icon: IconCircuitSwitchOpen,
    permission: 'CircuitBreaker:View',
    edition: 'enterprise',
  },
  { to: '/webhooks', label: 'Webhooks', icon: IconWebhook, permission: 'Webhooks:View' },
  { to: '/async-jobs', label: 'Async jobs', icon: IconHourglass, permission: 'Logs:View' },
  { to: '/settings', label: 'Settings', icon: IconSettings, permission: 'Settings:View' },
  { to: '/audit-logs', label: 'Audit log', icon: IconHistory, permission: 'AuditLogs:View' },
  {
    to: '/access-profiles',
    label: 'Access profiles',
    icon: IconUserShield,
    permission: 'AccessProfiles:View',
    edition: 'enterprise',
  },
  { to: '/users', label: 'Users and roles', icon: IconUsers, permission: 'Users:View', edition: 'enterprise' },
  { to: '/management-keys', label: 'Management keys', icon: IconApi, permission: 'APIKeys:View' },
];
