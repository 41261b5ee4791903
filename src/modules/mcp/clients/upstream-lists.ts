import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Prompt, Resource, ResourceTemplate, ServerCapabilities } from '@modelcontextprotocol/sdk/types.js';
import type { McpToolDefinition } from '../mcp-contract.js';

/** Most pages of one list read from a server (a longer list is cut there). */
const MAX_PAGES = 50;

const byName = <T extends { name: string }>(a: T, b: T) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** Every page of one of a server's lists: `next(cursor)` answers a page and the next cursor. */
async function allPages<T>(
  next: (cursor: string | undefined) => Promise<{ items: T[]; cursor?: string }>,
): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const answer = await next(cursor);
    items.push(...answer.items);
    cursor = answer.cursor;
    if (!cursor) break;
  }
  return items;
}

export async function listTools(client: Client, timeoutMs: number): Promise<McpToolDefinition[]> {
  const tools = await allPages(async (cursor) => {
    const result = await client.listTools(cursor ? { cursor } : undefined, { timeout: timeoutMs });
    return { items: result.tools, cursor: result.nextCursor };
  });
  return tools
    .map((t) => ({
      name: t.name,
      ...(t.description !== undefined ? { description: t.description } : {}),
      inputSchema: t.inputSchema,
    }))
    .sort(byName);
}

/** What a server offers besides tools, as listed; empty for what its capabilities do not declare. */
export interface UpstreamOffer {
  prompts: Prompt[];
  resources: Resource[];
  resourceTemplates: ResourceTemplate[];
}

export const NOTHING_OFFERED: UpstreamOffer = Object.freeze({ prompts: [], resources: [], resourceTemplates: [] });

export async function listPrompts(client: Client, timeoutMs: number): Promise<Prompt[]> {
  const prompts = await allPages(async (cursor) => {
    const result = await client.listPrompts(cursor ? { cursor } : undefined, { timeout: timeoutMs });
    return { items: result.prompts, cursor: result.nextCursor };
  });
  return prompts.sort(byName);
}

export async function listResources(
  client: Client,
  timeoutMs: number,
): Promise<Pick<UpstreamOffer, 'resources' | 'resourceTemplates'>> {
  const [resources, resourceTemplates] = await Promise.all([
    allPages(async (cursor) => {
      const result = await client.listResources(cursor ? { cursor } : undefined, { timeout: timeoutMs });
      return { items: result.resources, cursor: result.nextCursor };
    }),
    allPages(async (cursor) => {
      const result = await client.listResourceTemplates(cursor ? { cursor } : undefined, { timeout: timeoutMs });
      return { items: result.resourceTemplates, cursor: result.nextCursor };
    }),
  ]);
  return { resources: resources.sort(byName), resourceTemplates: resourceTemplates.sort(byName) };
}

/** Everything a server with these capabilities offers besides tools. */
export async function listOffer(
  client: Client,
  capabilities: ServerCapabilities,
  timeoutMs: number,
): Promise<UpstreamOffer> {
  const [prompts, resources] = await Promise.all([
    capabilities.prompts ? listPrompts(client, timeoutMs) : [],
    capabilities.resources ? listResources(client, timeoutMs) : { resources: [], resourceTemplates: [] },
  ]);
  return { prompts, ...resources };
}
