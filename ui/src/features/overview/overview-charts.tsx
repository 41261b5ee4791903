import { Paper, SimpleGrid, Text, Title } from '@mantine/core';
import type { Schema } from '../../api/schemas';
import { TimeChart, type ChartSeries } from '../../shared/chart/time-chart';
import { formatCost, formatLatency, formatNumber } from '../../shared/format/format';
import { chartRows } from './overview-data';

type Histogram = Schema<'RequestLogHistogram'>;

export interface OverviewHistograms {
  requests?: Histogram;
  latency?: Histogram;
  tokens?: Histogram;
  cost?: Histogram;
}

function ChartCard({ title, summary, children }: { title: string; summary: string; children: React.ReactNode }) {
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-label={title}>
      <Title order={2} size="h5">
        {title}
      </Title>
      <Text size="xs" c="dimmed" mb="sm">
        {summary}
      </Text>
      {children}
    </Paper>
  );
}

const CHART = { h: 200, dataKey: 'time' } as const;

const SERIES = {
  requests: [
    { name: 'success', label: 'Success', color: 'teal.6' },
    { name: 'error', label: 'Errors', color: 'red.6' },
  ],
  latency: [
    { name: 'p50', label: 'p50', color: 'blue.6' },
    { name: 'p95', label: 'p95', color: 'orange.6' },
    { name: 'p99', label: 'p99', color: 'red.6' },
  ],
  tokens: [
    { name: 'prompt_tokens', label: 'Prompt', color: 'violet.6' },
    { name: 'completion_tokens', label: 'Completion', color: 'cyan.6' },
  ],
  cost: [{ name: 'cost', label: 'Cost', color: 'green.7' }],
} satisfies Record<string, ChartSeries[]>;

/**
 * The overview's charts over the range, one per histogram of the API (`/api/logs/histogram[/latency|/tokens|/cost]`),
 * in their own chunk (uPlot, shared/chart): the figures and tables show without waiting for the charting code.
 */
export function OverviewCharts({ histograms }: { histograms: OverviewHistograms }) {
  const { requests, latency, tokens, cost } = histograms;
  const rows = (h: Histogram | undefined, measures: Parameters<typeof chartRows>[2]) =>
    h ? chartRows(h.buckets, h.bucket_size_seconds, measures) : [];
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
      <ChartCard title="Requests over time" summary="Successful and failed requests per interval">
        <TimeChart
          {...CHART}
          label="Requests per interval"
          type="bar"
          stacked
          data={rows(requests, ['success', 'error'])}
          series={SERIES.requests}
          valueFormatter={(v) => formatNumber(v)}
        />
      </ChartCard>
      <ChartCard title="Latency percentiles" summary="p50, p95 and p99 of the requests in each interval">
        <TimeChart
          {...CHART}
          label="Latency percentiles per interval"
          type="line"
          data={rows(latency, ['p50', 'p95', 'p99'])}
          series={SERIES.latency}
          valueFormatter={(v) => formatLatency(v)}
        />
      </ChartCard>
      <ChartCard title="Tokens over time" summary="Prompt and completion tokens per interval">
        <TimeChart
          {...CHART}
          label="Tokens per interval"
          type="bar"
          stacked
          data={rows(tokens, ['prompt_tokens', 'completion_tokens'])}
          series={SERIES.tokens}
          valueFormatter={(v) => formatNumber(v)}
        />
      </ChartCard>
      <ChartCard title="Cost over time" summary="USD per interval">
        <TimeChart
          {...CHART}
          label="Cost per interval"
          type="area"
          withLegend={false}
          data={rows(cost, ['cost'])}
          series={SERIES.cost}
          valueFormatter={(v) => formatCost(v)}
        />
      </ChartCard>
    </SimpleGrid>
  );
}
