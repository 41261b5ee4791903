import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { In, type DataSource, type EntityManager } from 'typeorm';
import { GatewayException } from '../../../core/errors/gateway.exception.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../../core/persistence/db-errors.js';
import { likePattern } from '../../../core/persistence/log-sql.js';
import type {
  CreateMcpToolGroupDto,
  McpToolGroupListDto,
  McpToolGroupQueryDto,
  McpToolGroupToolDto,
  McpToolGroupViewDto,
  UpdateMcpToolGroupDto,
} from './dto/mcp-tool-group.dto.js';
import { McpToolGroupToolEntity } from './entities/mcp-tool-group-tool.entity.js';
import { McpToolGroupEntity } from './entities/mcp-tool-group.entity.js';
import { ToolGroupDependents, type AfterToolGroupCommit } from './tool-group-dependents.js';

/** One tool of a group: a client and the tool's own name. */
export interface McpGroupTool {
  mcp_client_id: string;
  tool_name: string;
}

interface IdRow {
  id: string;
}

const NAME_CONFLICT = 'uq_mcp_tool_groups_name';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const invalid = (param: string, message: string) => GatewayException.validation(param, `${param} ${message}`);

/**
 * MCP tool groups: named sets of `<client, tool>` pairs that access profiles grant by reference. Each write is one
 * transaction holding the group's row lock; modules that reference groups (ToolGroupDependents) are asked before a
 * delete and told after a change of tools, in that transaction.
 */
@Injectable()
export class McpToolGroupsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly dependents: ToolGroupDependents,
  ) {}

  async list(query: McpToolGroupQueryDto): Promise<McpToolGroupListDto> {
    const limit = query.limit ?? 25;
    const offset = query.offset ?? 0;
    const qb = this.dataSource.getRepository(McpToolGroupEntity).createQueryBuilder('g');
    const search = query.search?.trim();
    if (search) qb.andWhere(`g.name ILIKE :like ESCAPE '\\'`, { like: likePattern(search) });
    if (query.mcp_client_id) {
      qb.andWhere(
        'EXISTS (SELECT 1 FROM mcp_tool_group_tools t WHERE t.group_id = g.id AND t.mcp_client_id = :client)',
        {
          client: query.mcp_client_id,
        },
      );
    }
    const [rows, total_count] = await qb.orderBy('g.name', 'ASC').skip(offset).take(limit).getManyAndCount();
    const tools = await this.toolsOf(
      this.dataSource.manager,
      rows.map((r) => r.id),
      { lock: false },
    );
    const tool_groups = rows.map((g) => McpToolGroupsService.view(g, tools.get(g.id) ?? []));
    return { tool_groups, count: tool_groups.length, total_count, limit, offset };
  }

  async get(id: string): Promise<McpToolGroupViewDto> {
    const group = await this.find(this.dataSource.manager, id, false);
    const tools = await this.toolsOf(this.dataSource.manager, [group.id], { lock: false });
    return McpToolGroupsService.view(group, tools.get(group.id) ?? []);
  }

  async create(dto: CreateMcpToolGroupDto): Promise<McpToolGroupViewDto> {
    const tools = checkTools(dto.tools ?? []);
    const id = await this.withNameConflict(dto.name, () =>
      this.dataSource.transaction(async (m) => {
        await this.assertClientsExist(m, tools);
        const saved = await m.save(
          m.create(McpToolGroupEntity, { name: dto.name, description: dto.description ?? '' }),
        );
        await this.insertTools(m, saved.id, tools);
        return saved.id;
      }),
    );
    return this.get(id);
  }

  /** PUT: the fields sent replace the stored ones (`tools` whole); dependents re-derive from the new tools. */
  async update(id: string, dto: UpdateMcpToolGroupDto): Promise<McpToolGroupViewDto> {
    const tools = dto.tools === undefined ? undefined : checkTools(dto.tools);
    const after = await this.withNameConflict(dto.name, () =>
      this.dataSource.transaction(async (m) => {
        const group = await this.find(m, id, true);
        if (tools) await this.assertClientsExist(m, tools);
        await m.update(
          McpToolGroupEntity,
          { id: group.id },
          {
            name: dto.name ?? group.name,
            description: dto.description ?? group.description,
            updated_at: () => 'CURRENT_TIMESTAMP',
          },
        );
        if (!tools) return [];
        await m.delete(McpToolGroupToolEntity, { group_id: group.id });
        await this.insertTools(m, group.id, tools);
        return this.dependents.toolsChanged(m, group.id);
      }),
    );
    await runAfterCommit(after);
    return this.get(id);
  }

  /** Deletes a group; 409 `in_use` while anything references it (access profile templates, users' copies). */
  async remove(id: string): Promise<void> {
    await this.dataSource.transaction(async (m) => {
      const group = await this.find(m, id, true);
      const refs = await this.dependents.references(m, group.id);
      if (refs.length) {
        const what = refs.map((r) => `${r.count} ${r.label}`).join(' and ');
        throw new GatewayException(
          409,
          'in_use',
          `Tool group ${group.name} is referenced by ${what}; remove it from them first`,
        );
      }
      await m.delete(McpToolGroupEntity, { id: group.id });
    });
  }

  // ---- for modules that reference groups (through src/modules/mcp/index.ts) ----

  /**
   * The ids among `ids` that name no group. The groups found are locked (`FOR KEY SHARE`) until the caller's
   * transaction ends, so a delete waits for it and then sees the new reference.
   */
  async missing(m: EntityManager, ids: readonly string[]): Promise<Set<string>> {
    const wanted = [...new Set(ids)].filter((i) => UUID.test(i));
    const found = wanted.length
      ? await m.query<IdRow[]>('SELECT id FROM mcp_tool_groups WHERE id = ANY($1::uuid[]) FOR KEY SHARE', [wanted])
      : [];
    const existing = new Set(found.map((r) => r.id));
    return new Set(ids.filter((i) => !existing.has(i)));
  }

  /**
   * The tools of each group (groups that do not exist are absent), sorted by client id then name. With `lock`, the
   * groups' rows are held (`FOR KEY SHARE`) until the caller's transaction ends, so a change of their tools waits.
   */
  async toolsOf(
    m: EntityManager,
    ids: readonly string[],
    options: { lock: boolean } = { lock: true },
  ): Promise<Map<string, McpGroupTool[]>> {
    const wanted = [...new Set(ids)].filter((i) => UUID.test(i));
    const out = new Map<string, McpGroupTool[]>();
    if (!wanted.length) return out;
    if (options.lock) {
      const locked = await m.query<IdRow[]>('SELECT id FROM mcp_tool_groups WHERE id = ANY($1::uuid[]) FOR KEY SHARE', [
        wanted,
      ]);
      for (const r of locked) out.set(r.id, []);
    } else {
      for (const id of wanted) out.set(id, []);
    }
    const rows = await m.find(McpToolGroupToolEntity, {
      where: { group_id: In(wanted) },
      order: { mcp_client_id: 'ASC', tool_name: 'ASC' },
    });
    for (const r of rows) out.get(r.group_id)?.push({ mcp_client_id: r.mcp_client_id, tool_name: r.tool_name });
    return out;
  }

  static view(g: McpToolGroupEntity, tools: McpGroupTool[]): McpToolGroupViewDto {
    return {
      id: g.id,
      name: g.name,
      description: g.description,
      tools,
      created_at: g.created_at.toISOString(),
      updated_at: g.updated_at.toISOString(),
    };
  }

  private async find(m: EntityManager, id: string, lock: boolean): Promise<McpToolGroupEntity> {
    const found = UUID.test(id)
      ? await m.findOne(McpToolGroupEntity, { where: { id }, ...(lock ? { lock: { mode: 'pessimistic_write' } } : {}) })
      : null;
    if (!found) throw GatewayException.notFound('mcp_tool_group', `MCP tool group ${id} does not exist`);
    return found;
  }

  /** Every tool's client exists (locked against a concurrent delete until the transaction ends); else 400 naming it. */
  private async assertClientsExist(m: EntityManager, tools: McpGroupTool[]): Promise<void> {
    const ids = [...new Set(tools.map((t) => t.mcp_client_id))];
    if (!ids.length) return;
    const found = await m.query<IdRow[]>('SELECT id FROM mcp_clients WHERE id = ANY($1::uuid[]) FOR KEY SHARE', [ids]);
    const existing = new Set(found.map((r) => r.id));
    tools.forEach((t, i) => {
      if (!existing.has(t.mcp_client_id)) {
        throw invalid(`tools[${i}].mcp_client_id`, `names no existing MCP client (${t.mcp_client_id})`);
      }
    });
  }

  private async insertTools(m: EntityManager, groupId: string, tools: McpGroupTool[]): Promise<void> {
    if (!tools.length) return;
    try {
      await m.insert(
        McpToolGroupToolEntity,
        tools.map((t) => ({ group_id: groupId, mcp_client_id: t.mcp_client_id, tool_name: t.tool_name })),
      );
    } catch (error) {
      // A client deleted between the check and the insert (the foreign key is the backstop).
      if (isForeignKeyViolation(error)) throw invalid('tools', 'names an MCP client that was just deleted');
      throw error;
    }
  }

  /** A name already taken: 409 `already_exists` naming `name`. */
  private async withNameConflict<T>(name: string | undefined, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (isUniqueViolation(error, NAME_CONFLICT)) {
        throw GatewayException.conflict(`MCP tool group ${name} already exists`, 'name');
      }
      throw error;
    }
  }
}

/** The tools as stored: each pair once, `*` refused (a group lists tools; a whole client is an `mcp_servers` grant). */
function checkTools(tools: McpToolGroupToolDto[]): McpGroupTool[] {
  const seen = new Map<string, number>();
  return tools.map((t, i) => {
    if (t.tool_name === '*') {
      throw invalid(
        `tools[${i}].tool_name`,
        'cannot be *: a group lists tools by name (grant a whole client with an access profile’s mcp_servers)',
      );
    }
    const key = `${t.mcp_client_id.toLowerCase()}\u0000${t.tool_name}`;
    const first = seen.get(key);
    if (first !== undefined) throw invalid(`tools[${i}]`, `repeats tools[${first}]`);
    seen.set(key, i);
    return { mcp_client_id: t.mcp_client_id.toLowerCase(), tool_name: t.tool_name };
  });
}

async function runAfterCommit(work: AfterToolGroupCommit[]): Promise<void> {
  for (const w of work) await w();
}
