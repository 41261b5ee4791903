import { Button, Paper, SimpleGrid, Text } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { api, call } from '../../api/client';
import { formatCost, formatLatency, formatNumber, formatPercent } from '../../shared/format/format';
import { ServerTable } from '../../shared/table/server-table';
import { ErrorAlert } from '../../shared/ui/error-alert';
import { IconRefresh } from '../../shared/ui/icons';
import { Page } from '../../shared/ui/page';
import { Stat } from '../../shared/ui/stat';
import { mcpLogColumns } from './mcp-log-columns';
import { McpLogDrawer } from './mcp-log-drawer';
import { McpLogsFilters } from './mcp-logs-filters';
import { mcpLogsQueryOf, mcpLogsSearchOf, type McpLogsSearch } from './mcp-logs-search';
import { mcpLogsRoute } from './route';

/**
 * MCP tool logs: every filter of `GET /api/mcp-logs` in the URL, paged and sorted by the API, a call's detail in a
 * drawer, and a link from each call to the LLM request that asked for it.
 */
export function McpLogsPage() {
  const search = mcpLogsRoute.useSearch();
  const navigate = mcpLogsRoute.useNavigate();
  const go = (next: McpLogsSearch, replace = false) => void navigate({ search: mcpLogsSearchOf(next), replace });
  const [refreshes, setRefreshes] = useState(0);
  const { log: openId, ...view } = search;
  const viewKey = JSON.stringify(view);
  const query = useMemo(() => mcpLogsQueryOf(JSON.parse(viewKey) as McpLogsSearch, Date.now()), [viewKey, refreshes]);
  const { limit: _limit, offset: _offset, sort_by: _sort, order: _order, ...filters } = query;

  const list = useQuery({
    queryKey: ['mcp-logs', 'list', query],
    queryFn: ({ signal }) => call(api.GET('/api/mcp-logs', { params: { query }, signal })),
    placeholderData: keepPreviousData,
  });
  const stats = useQuery({
    queryKey: ['mcp-logs', 'stats', filters],
    queryFn: ({ signal }) => call(api.GET('/api/mcp-logs/stats', { params: { query: filters }, signal })),
    placeholderData: keepPreviousData,
    enabled: !list.isError,
  });
  const filterData = useQuery({
    queryKey: ['mcp-logs', 'filterdata'],
    queryFn: ({ signal }) => call(api.GET('/api/mcp-logs/filterdata', { signal })),
    staleTime: 60_000,
    enabled: !list.isError,
  });
  const columns = useMemo(() => mcpLogColumns((row) => go({ ...search, log: row.id })), [search]);

  return (
    <Page
      title="MCP tool logs"
      description="Every MCP tool call, with its arguments, result and the LLM request that made it."
      actions={
        <Button
          variant="default"
          leftSection={<IconRefresh size={16} aria-hidden />}
          onClick={() => (search.period ? setRefreshes((n) => n + 1) : void list.refetch())}
          loading={list.isFetching && !list.isPending}
        >
          Refresh
        </Button>
      }
    >
      <Paper withBorder p="md" radius="md">
        <McpLogsFilters
          search={search}
          filterData={filterData.data}
          listError={list.error}
          onApply={(next) => go({ ...next, log: undefined })}
        />
      </Paper>
      {list.isError && <ErrorAlert error={list.error} />}
      {stats.data && !list.isError && (
        <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm">
          <Stat label="Tool calls" value={formatNumber(stats.data.total_executions)} />
          <Stat label="Success rate" value={formatPercent(stats.data.success_rate)} />
          <Stat label="Average latency" value={formatLatency(stats.data.average_latency)} />
          <Stat label="Cost" value={formatCost(stats.data.total_cost)} />
        </SimpleGrid>
      )}
      {!list.isError && (
        <ServerTable
          label="MCP tool logs"
          columns={columns}
          rows={list.data?.logs ?? []}
          rowId={(row) => row.id}
          total={list.data?.pagination.total_count ?? 0}
          page={{ offset: query.offset, limit: query.limit }}
          onPage={(page) => go({ ...search, ...page })}
          sort={{ by: query.sort_by, order: query.order }}
          onSort={(sort) =>
            go({ ...search, sort_by: sort.by as McpLogsSearch['sort_by'], order: sort.order, offset: 0 })
          }
          onRowClick={(row) => go({ ...search, log: row.id })}
          rowProps={(row) => ({ 'aria-current': row.id === openId || undefined })}
          loading={list.isPending}
          empty={
            <Text c="dimmed">
              {list.data?.has_logs === false
                ? 'No tool call has been logged yet. Calls through the MCP gateway and agent mode appear here.'
                : 'No tool log matches these filters.'}
            </Text>
          }
        />
      )}
      <McpLogDrawer id={openId} onClose={() => go({ ...search, log: undefined })} />
    </Page>
  );
}
