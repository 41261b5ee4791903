import type { Schema } from '../../api/schemas';

export type ToolGroupView = Schema<'McpToolGroup'>;
export type ToolGroupTool = Schema<'McpToolGroupTool'>;
type ClientTools = Pick<Schema<'McpClient'>, 'id' | 'name' | 'tools'>;

/** A tool as one picker value: `<client id>/<tool name>` (a client id is a uuid, so the first `/` splits). */
export function toolValue(tool: ToolGroupTool): string {
  return `${tool.mcp_client_id}/${tool.tool_name}`;
}

/** The group's tools from the picker's values, in the order picked. */
export function toolsOfValues(values: readonly string[]): ToolGroupTool[] {
  return values.map((v) => {
    const at = v.indexOf('/');
    return { mcp_client_id: v.slice(0, at), tool_name: v.slice(at + 1) };
  });
}

/** How a person reads a tool: `<client>-<tool>` as models see it, or the client's id when it is not known here. */
export function toolLabel(tool: ToolGroupTool, clients: readonly ClientTools[]): string {
  const client = clients.find((c) => c.id === tool.mcp_client_id);
  return `${client?.name ?? tool.mcp_client_id}-${tool.tool_name}`;
}

export interface PickerGroup {
  group: string;
  items: Array<{ value: string; label: string }>;
}

/**
 * The tool picker's options: every tool each client lists, grouped by client name; tools the group already holds
 * that no client lists now (the server dropped it, or it is not connected) are kept as options, marked, so an edit
 * neither loses them silently nor shows a bare id.
 */
export function toolPickerData(clients: readonly ClientTools[], held: readonly ToolGroupTool[]): PickerGroup[] {
  const groups = new Map<string, PickerGroup>();
  const add = (group: string, value: string, label: string) => {
    const entry = groups.get(group) ?? { group, items: [] };
    if (!entry.items.some((i) => i.value === value)) entry.items.push({ value, label });
    groups.set(group, entry);
  };
  for (const client of clients)
    for (const tool of client.tools)
      add(client.name, toolValue({ mcp_client_id: client.id, tool_name: tool.name }), `${client.name}-${tool.name}`);
  for (const tool of held) {
    const client = clients.find((c) => c.id === tool.mcp_client_id);
    if (client?.tools.some((t) => t.name === tool.tool_name)) continue;
    add(client?.name ?? 'Other', toolValue(tool), `${toolLabel(tool, clients)} (not listed now)`);
  }
  return [...groups.values()];
}

/** The groups holding a tool of a client, by name. */
export function groupsOfTool(groups: readonly ToolGroupView[], clientId: string, toolName: string): ToolGroupView[] {
  return groups.filter((g) => g.tools.some((t) => t.mcp_client_id === clientId && t.tool_name === toolName));
}

/** A group's tools with one tool added (kept once) or removed: the body of the PUT that changes it. */
export function toolsWith(group: ToolGroupView, tool: ToolGroupTool, member: boolean): ToolGroupTool[] {
  const others = group.tools.filter((t) => !(t.mcp_client_id === tool.mcp_client_id && t.tool_name === tool.tool_name));
  return member ? [...others, tool] : others;
}
