import { Column } from 'typeorm';
import type {
  McpServerRef,
  McpToolGroupRef,
  McpToolOverride,
  ProfileBudget,
  ProfileFields,
  ProfileProviderConfig,
} from '../access-profile-fields.js';
import type { RateLimitInput } from '../../governance/index.js';

/** The profile fields as JSON columns, shared by templates and users' copies (each declares its own table). */
export abstract class ProfileFieldColumns implements ProfileFields {
  @Column({ name: 'provider_configs', type: 'jsonb', default: () => "'[]'" })
  provider_configs: ProfileProviderConfig[];

  @Column({ type: 'jsonb', default: () => "'[]'" })
  budgets: ProfileBudget[];

  @Column({ name: 'rate_limit', type: 'jsonb', nullable: true })
  rate_limit: RateLimitInput | null;

  @Column({ name: 'calendar_aligned', type: 'boolean', default: false })
  calendar_aligned: boolean;

  @Column({ name: 'mcp_tool_groups', type: 'jsonb', default: () => "'[]'" })
  mcp_tool_groups: McpToolGroupRef[];

  @Column({ name: 'mcp_servers', type: 'jsonb', default: () => "'[]'" })
  mcp_servers: McpServerRef[];

  @Column({ name: 'mcp_tool_overrides', type: 'jsonb', default: () => "'[]'" })
  mcp_tool_overrides: McpToolOverride[];
}
