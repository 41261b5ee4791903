import { Alert, Button, Center, Loader, SimpleGrid, Text } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useMemo, useState } from 'react';
import { api, call } from '../../api/client';
import { useCaller, useCan } from '../../shared/auth/permissions';
import { formatCost, formatLatency, formatNumber, formatPercent } from '../../shared/format/format';
import { ErrorAlert } from '../../shared/ui/error-alert';
import { IconRefresh } from '../../shared/ui/icons';
import { Page } from '../../shared/ui/page';
import { Stat } from '../../shared/ui/stat';
import { overviewRange, overviewSearchOf, type OverviewSearch } from './overview-search';
import { Breakdown, Card, OpenCircuits, TopVirtualKeys } from './overview-tables';
import { RangePicker } from './range-picker';
import { overviewRoute } from './route';

// The charting code (uPlot) is its own chunk: figures and tables paint first.
const OverviewCharts = lazy(() => import('./overview-charts').then((m) => ({ default: m.OverviewCharts })));

const HISTOGRAMS = {
  requests: '/api/logs/histogram',
  latency: '/api/logs/histogram/latency',
  tokens: '/api/logs/histogram/tokens',
  cost: '/api/logs/histogram/cost',
} as const;

/** The log-based parts: figures, charts, the breakdown and the top virtual keys, all over one range. */
function LogFigures({ search, range, go }: { search: OverviewSearch; range: Range; go: (s: OverviewSearch) => void }) {
  const groupBy = search.group_by ?? 'model';
  const groups = useQuery({
    queryKey: ['overview', 'groups', groupBy, range],
    queryFn: ({ signal }) =>
      call(api.GET('/api/logs/groups', { params: { query: { ...range, group_by: groupBy, limit: 10 } }, signal })),
    placeholderData: keepPreviousData,
  });
  const keys = useQuery({
    queryKey: ['overview', 'virtual-keys', range],
    queryFn: ({ signal }) =>
      call(
        api.GET('/api/logs/groups', {
          params: { query: { ...range, group_by: 'virtual_key', sort_by: 'cost', limit: 5 } },
          signal,
        }),
      ),
    placeholderData: keepPreviousData,
  });
  const histogram = (kind: keyof typeof HISTOGRAMS) => ({
    queryKey: ['overview', 'histogram', kind, range],
    queryFn: ({ signal }: { signal: AbortSignal }) =>
      call(api.GET(HISTOGRAMS[kind], { params: { query: range }, signal })),
    placeholderData: keepPreviousData,
  });
  const requests = useQuery(histogram('requests'));
  const latency = useQuery(histogram('latency'));
  const tokens = useQuery(histogram('tokens'));
  const cost = useQuery(histogram('cost'));
  const failed = [groups, keys, requests, latency, tokens, cost].find((q) => q.isError);
  const total = groups.data?.total;

  return (
    <>
      {failed && <ErrorAlert error={failed.error} />}
      <SimpleGrid cols={{ base: 2, sm: 4, lg: 7 }} spacing="sm" aria-busy={groups.isFetching}>
        <Stat label="Requests" value={formatNumber(total?.requests)} />
        <Stat
          label="Errors"
          value={formatNumber(total?.errors)}
          hint={total && total.requests > 0 ? `${formatPercent(total.success_rate)} succeeded` : undefined}
        />
        <Stat label="Latency p50" value={formatLatency(total?.p50)} />
        <Stat label="Latency p95" value={formatLatency(total?.p95)} />
        <Stat label="Latency p99" value={formatLatency(total?.p99)} />
        <Stat label="Tokens" value={formatNumber(total?.tokens)} />
        <Stat label="Cost" value={formatCost(total?.cost)} />
      </SimpleGrid>
      <Suspense
        fallback={
          <Center h={240}>
            <Loader size="sm" aria-label="Loading the charts" />
          </Center>
        }
      >
        <OverviewCharts
          histograms={{ requests: requests.data, latency: latency.data, tokens: tokens.data, cost: cost.data }}
        />
      </Suspense>
      <Breakdown data={groups.data} search={search} onGroupBy={(group_by) => go({ ...search, group_by })} />
      <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
        <TopVirtualKeys data={keys.data} search={search} />
        <Circuits />
      </SimpleGrid>
    </>
  );
}

type Range = { start_time: string; end_time: string };

/** Circuits open now: enterprise only (the open-source edition has no circuit breakers). */
function Circuits() {
  const { edition } = useCaller();
  const allowed = useCan('CircuitBreaker:View');
  const state = useQuery({
    queryKey: ['overview', 'circuits'],
    queryFn: ({ signal }) => call(api.GET('/api/circuit-breaker/state', { signal })),
    enabled: edition === 'enterprise' && allowed,
    refetchInterval: 15_000,
  });
  return (
    <Card title="Open circuits">
      {edition !== 'enterprise' ? (
        <Text size="sm" c="dimmed">
          Circuit breakers are part of the enterprise edition.
        </Text>
      ) : !allowed ? (
        <Text size="sm" c="dimmed">
          Needs the CircuitBreaker:View permission.
        </Text>
      ) : state.isError ? (
        <ErrorAlert error={state.error} />
      ) : (
        <OpenCircuits circuits={state.data?.circuits} />
      )}
    </Card>
  );
}

/**
 * Requests, errors, latency percentiles, tokens and cost over a range (the last hour, 24 hours, 7 days or a custom
 * one), by provider and model, from the API's log groups and histograms (nothing is added up here); the virtual keys
 * that cost most; the circuits open now. The range is in the URL.
 */
export function OverviewPage() {
  const search = overviewRoute.useSearch();
  const navigate = overviewRoute.useNavigate();
  const go = (next: OverviewSearch) => void navigate({ search: overviewSearchOf(next), replace: true });
  const canLogs = useCan('Logs:View');
  const [refreshes, setRefreshes] = useState(0);
  const rangeKey = JSON.stringify([search.period, search.start_time, search.end_time]);
  // A relative period is made absolute when the view changes or is refreshed.
  const range = useMemo(() => overviewRange(search, Date.now()), [rangeKey, refreshes]);

  return (
    <Page
      title="Overview"
      description="Requests, errors, latency, tokens and cost over time, by provider and model."
      actions={
        <>
          <RangePicker key={rangeKey} search={search} range={range} onChange={go} />
          <Button
            variant="default"
            leftSection={<IconRefresh size={16} aria-hidden />}
            onClick={() => setRefreshes((n) => n + 1)}
          >
            Refresh
          </Button>
        </>
      }
    >
      {canLogs ? (
        <LogFigures search={search} range={range} go={go} />
      ) : (
        <Alert color="gray" title="No request figures">
          The overview is drawn from the request logs, which need the Logs:View permission.
        </Alert>
      )}
      {!canLogs && <Circuits />}
    </Page>
  );
}
