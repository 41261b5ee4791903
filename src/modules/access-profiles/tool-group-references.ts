import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { GatewayException } from '../../core/errors/gateway.exception.js';
import {
  McpToolGroupsService,
  ToolGroupDependents,
  type AfterToolGroupCommit,
  type ToolGroupReferenceCount,
} from '../mcp/index.js';
import type { McpToolGroupRef } from './access-profile-fields.js';
import { ManagedKeyWriter } from './managed-key.writer.js';

/**
 * Access profiles reference MCP tool groups (`mcp_tool_groups`) in templates and users' copies. Registered with the
 * MCP module's ToolGroupDependents, so that module never imports this one: a group referenced here cannot be
 * deleted, and a change of its tools rewrites the grants of the managed keys of the copies that reference it.
 */
@Injectable()
export class ToolGroupReferences implements OnModuleInit {
  constructor(
    private readonly dependents: ToolGroupDependents,
    private readonly groups: McpToolGroupsService,
    private readonly managedKeys: ManagedKeyWriter,
  ) {}

  onModuleInit(): void {
    this.dependents.register({
      references: (m, id) => this.count(m, id),
      toolsChanged: (m, id) => this.rewrite(m, id),
    });
  }

  /**
   * Every referenced group exists (400 naming `mcp_tool_groups[i].tool_group_id`, the first that does not). The groups
   * stay locked until the caller's transaction ends, so a concurrent delete waits and then counts this reference.
   */
  async assertExist(m: EntityManager, refs: readonly McpToolGroupRef[]): Promise<void> {
    if (!refs.length) return;
    const missing = await this.groups.missing(
      m,
      refs.map((r) => r.tool_group_id),
    );
    const at = refs.findIndex((r) => missing.has(r.tool_group_id));
    if (at < 0) return;
    const param = `mcp_tool_groups[${at}].tool_group_id`;
    throw GatewayException.validation(param, `${param} names no existing MCP tool group (${refs[at]!.tool_group_id})`);
  }

  private async count(m: EntityManager, groupId: string): Promise<ToolGroupReferenceCount[]> {
    const ref = JSON.stringify([{ tool_group_id: groupId }]);
    const [row] = await m.query<Array<{ templates: number; copies: number }>>(
      `SELECT (SELECT count(*) FROM access_profiles WHERE mcp_tool_groups @> $1::jsonb)::int AS templates,
              (SELECT count(*) FROM access_profile_copies WHERE mcp_tool_groups @> $1::jsonb)::int AS copies`,
      [ref],
    );
    return [
      { count: row?.templates ?? 0, label: 'access profile template(s)' },
      { count: row?.copies ?? 0, label: "user(s)' access profile copies" },
    ];
  }

  private async rewrite(m: EntityManager, groupId: string): Promise<AfterToolGroupCommit | undefined> {
    const changed = await this.managedKeys.rewriteGrantsOfGroup(m, groupId);
    return changed ? () => this.managedKeys.afterGrantsCommit() : undefined;
  }
}
