import { useQuery } from '@tanstack/react-query';
import { api, call } from '../../api/client';

/** The API's largest page for these lists. */
const PAGE = 100;

/** Every page of a list answered as `{ <items>, total_count }`, read one after the other. */
async function allPages<T>(read: (offset: number) => Promise<{ items: T[]; total: number }>): Promise<T[]> {
  const out: T[] = [];
  for (let offset = 0; ; offset += PAGE) {
    const { items, total } = await read(offset);
    out.push(...items);
    if (items.length === 0 || out.length >= total) return out;
  }
}

/** Every tool group (sorted by name), for the groups screen and the clients' tool rows. */
export function useToolGroups() {
  return useQuery({
    queryKey: ['mcp-tool-groups'],
    queryFn: ({ signal }) =>
      allPages(async (offset) => {
        const page = await call(
          api.GET('/api/mcp/tool-groups', { params: { query: { limit: PAGE, offset } }, signal }),
        );
        return { items: page.tool_groups, total: page.total_count };
      }),
  });
}

/** Every MCP client with the tools it lists, for the tool picker. */
export function useMcpClientTools() {
  return useQuery({
    queryKey: ['mcp-clients', 'all'],
    queryFn: ({ signal }) =>
      allPages(async (offset) => {
        const page = await call(api.GET('/api/mcp/clients', { params: { query: { limit: PAGE, offset } }, signal }));
        return { items: page.clients, total: page.total_count };
      }),
  });
}
