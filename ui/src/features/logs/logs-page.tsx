import { Badge, Button, Menu, Paper, SimpleGrid, Switch, Text } from '@mantine/core';
import { IconDownload, IconRefresh } from '../../shared/ui/icons';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { formatCost, formatLatency, formatNumber, formatPercent } from '../../shared/format/format';
import { useLiveEvents, useLiveStatus } from '../../shared/live/use-live';
import { ServerTable } from '../../shared/table/server-table';
import { ErrorAlert } from '../../shared/ui/error-alert';
import { Page } from '../../shared/ui/page';
import { Stat } from '../../shared/ui/stat';
import { ExportDialog } from './export-dialog';
import type { ExportFormat } from './export-logs';
import { LiveBatch } from './live-batch';
import { liveVerdict, type RequestLog } from './live-filter';
import { logColumns } from './log-columns';
import { LogDrawer } from './log-drawer';
import { LogsFilters } from './logs-filters';
import { filtersOf, logFilterDataQuery, logsListQuery, logStatsQuery } from './logs-queries';
import { logsQueryOf, logsSearchOf, showsNewestFirst, type LogsSearch } from './logs-search';
import { logsRoute } from './route';

/** Live rows are put on screen at most this often (a busy gateway logs hundreds a second). */
const LIVE_FLUSH_MS = 250;
/** With a content search, a pushed row may or may not match: the list is read again, at most this often. */
const LIVE_REFETCH_MS = 2000;

const STATUS_LABEL = { connected: 'Connected', connecting: 'Connecting…', disconnected: 'Disconnected, reconnecting…' };
const STATUS_COLOR = { connected: 'green', connecting: 'yellow', disconnected: 'red' };

/**
 * Request logs: every filter of `GET /api/logs` in the URL, paged and sorted by the API, a row's detail in a drawer,
 * the export of the current filter, and live mode: rows pushed on `/ws` join the top of the first page when the
 * list's own filter admits them (live-filter.ts), and the list never holds more than one page.
 */
export function LogsPage() {
  const search = logsRoute.useSearch();
  const navigate = logsRoute.useNavigate();
  const go = (next: LogsSearch, replace = false) => void navigate({ search: logsSearchOf(next), replace });

  const [refreshes, setRefreshes] = useState(0);
  const { log: openId, live: liveWanted, ...view } = search;
  const viewKey = JSON.stringify(view);
  // The query the list is read with; a relative period is made absolute when the view changes or is refreshed.
  const query = useMemo(() => logsQueryOf(JSON.parse(viewKey) as LogsSearch, Date.now()), [viewKey, refreshes]);

  const filters = filtersOf(query);
  const searching = !!query.content_search;
  const list = useQuery({ ...logsListQuery(query), placeholderData: keepPreviousData });
  const totals = useQuery({
    ...logStatsQuery(filters),
    placeholderData: keepPreviousData,
    enabled: !searching && !list.isError,
  });
  const filterData = useQuery({ ...logFilterDataQuery, enabled: !list.isError });

  // Live mode.
  const live = !!liveWanted && showsNewestFirst(query);
  const status = useLiveStatus();
  const [liveRows, setLiveRows] = useState<RequestLog[]>([]);
  const pending = useRef(new LiveBatch<RequestLog>());
  const flushTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const refetchTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  // The rows that arrived live in this view stay marked new once a page read lists them too.
  const arrived = useRef(new Set<string>());
  useEffect(() => {
    // Another view (filter, page, order): what was pushed for the last one is not this one's. A page read again of
    // the same view keeps them: one that began before a row was written does not list it, and `fresh` below
    // already drops those it does list.
    pending.current.clear();
    arrived.current = new Set();
    setLiveRows([]);
  }, [viewKey]);
  useEffect(() => () => (clearTimeout(flushTimer.current), clearTimeout(refetchTimer.current)), []);
  const flushLive = () => {
    clearTimeout(flushTimer.current);
    flushTimer.current = undefined;
    const fresh = pending.current.take();
    arrived.current = new Set([...fresh.map((row) => row.id), ...arrived.current].slice(0, query.limit));
    setLiveRows((rows) => [...fresh, ...rows].slice(0, query.limit));
  };
  useLiveEvents('log', live, (event) => {
    const row = event.data as RequestLog;
    const verdict = liveVerdict(row, query);
    if (verdict === 'match') {
      // A whole page waiting is rendered now (flushSync: not merged with the next one), so each row is seen once.
      if (pending.current.add(row, query.limit)) flushSync(flushLive);
      else flushTimer.current ??= setTimeout(flushLive, LIVE_FLUSH_MS);
    } else if (verdict === 'unknown') {
      refetchTimer.current ??= setTimeout(() => {
        refetchTimer.current = undefined;
        void list.refetch();
      }, LIVE_REFETCH_MS);
    }
  });
  // Events sent while disconnected are gone: read the list again on every (re)connection.
  useEffect(() => {
    if (live && status === 'connected') void Promise.all([list.refetch(), searching || totals.refetch()]);
  }, [live, status]);

  const listed = list.data?.logs ?? [];
  const listedIds = new Set(listed.map((row) => row.id));
  const fresh = liveRows.filter((row) => !listedIds.has(row.id));
  const rows = [...fresh, ...listed].slice(0, query.limit);
  // Until the exact count of this view arrives, the page's own: one more when the page is full, so "next" stays on.
  const exact = searching
    ? list.data?.pagination.total_count
    : totals.isPlaceholderData
      ? undefined
      : totals.data?.total_requests;
  const counted = (list.data?.pagination.total_count ?? 0) + (listed.length === query.limit ? 1 : 0);
  const total = (exact ?? counted) + fresh.length;
  const freshIds = new Set(fresh.map((row) => row.id));
  const columns = useMemo(() => logColumns((row) => go({ ...search, log: row.id })), [search]);
  const [exportFormat, setExportFormat] = useState<ExportFormat>();
  const stats = searching ? list.data?.stats : totals.data;

  return (
    <Page
      title="Request logs"
      description="Every request through the gateway, with its routing, tokens, cost and content."
      actions={
        <>
          <Switch
            label="Live"
            checked={!!liveWanted}
            onChange={(e) => go({ ...search, live: e.currentTarget.checked || undefined }, true)}
          />
          {liveWanted && (
            <Badge
              color={live ? STATUS_COLOR[status] : 'gray'}
              variant="dot"
              role="status"
              aria-live="polite"
              tt="none"
            >
              {live ? STATUS_LABEL[status] : 'Live shows on the first page, newest first'}
            </Badge>
          )}
          <Button
            variant="default"
            leftSection={<IconRefresh size={16} aria-hidden />}
            // A relative period moves its start (a new query); otherwise the same query is read again.
            onClick={() =>
              search.period
                ? setRefreshes((n) => n + 1)
                : void Promise.all([list.refetch(), searching || totals.refetch()])
            }
            loading={list.isFetching && !list.isPending}
          >
            Refresh
          </Button>
          <Menu position="bottom-end">
            <Menu.Target>
              <Button variant="default" leftSection={<IconDownload size={16} aria-hidden />}>
                Export
              </Button>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Item onClick={() => setExportFormat('csv')}>CSV</Menu.Item>
              <Menu.Item onClick={() => setExportFormat('jsonl')}>JSON Lines</Menu.Item>
            </Menu.Dropdown>
          </Menu>
        </>
      }
    >
      <Paper withBorder p="md" radius="md">
        <LogsFilters
          search={search}
          filterData={filterData.data}
          listError={list.error}
          onApply={(next) => go({ ...next, log: undefined })}
        />
      </Paper>
      {list.isError && <ErrorAlert error={list.error} />}
      {stats && (
        <SimpleGrid cols={{ base: 2, sm: 3, lg: 5 }} spacing="sm">
          <Stat label="Requests" value={formatNumber(stats.total_requests)} />
          <Stat label="Success rate" value={formatPercent(stats.success_rate)} />
          <Stat label="Average latency" value={formatLatency(stats.average_latency)} />
          <Stat label="Tokens" value={formatNumber(stats.total_tokens)} />
          <Stat label="Cost" value={formatCost(stats.total_cost)} />
        </SimpleGrid>
      )}
      {!list.isError && (
        <ServerTable
          label="Request logs"
          columns={columns}
          rows={rows}
          rowId={(row) => row.id}
          total={total}
          page={{ offset: query.offset, limit: query.limit }}
          onPage={(page) => go({ ...search, ...page })}
          sort={{ by: query.sort_by, order: query.order }}
          onSort={(sort) => go({ ...search, sort_by: sort.by as LogsSearch['sort_by'], order: sort.order, offset: 0 })}
          onRowClick={(row) => go({ ...search, log: row.id })}
          rowProps={(row) => ({
            'data-new': freshIds.has(row.id) || arrived.current.has(row.id) || undefined,
            'aria-current': row.id === openId || undefined,
          })}
          loading={list.isPending}
          empty={
            <Text c="dimmed">
              {list.data?.has_logs === false
                ? 'No request has been logged yet. Requests through /v1 appear here.'
                : 'No log matches these filters.'}
            </Text>
          }
        />
      )}
      <LogDrawer
        id={openId}
        onClose={() => go({ ...search, log: undefined })}
        onOpen={(id) => go({ ...search, log: id })}
      />
      <ExportDialog format={exportFormat} query={query} onClose={() => setExportFormat(undefined)} />
    </Page>
  );
}
