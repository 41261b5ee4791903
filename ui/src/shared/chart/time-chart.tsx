import 'uplot/dist/uPlot.min.css';
import { Box, Group, Text, useComputedColorScheme, useMantineTheme, VisuallyHidden } from '@mantine/core';
import { useEffect, useMemo, useRef, useState } from 'react';
import uPlot from 'uplot';
import { chartColumns, drawnMax, type ChartRow, type ChartSeries } from './chart-data';

export type { ChartRow, ChartSeries } from './chart-data';

export interface TimeChartProps {
  /** What the chart shows: the caption of its data table (the text alternative). */
  label: string;
  /** One row per interval, oldest first. */
  data: ChartRow[];
  /** The row key holding each interval's label (the x axis). */
  dataKey: string;
  series: ChartSeries[];
  /** `bar`: bars per interval (stacked when `stacked`); `line`: lines with gaps where nothing was measured; `area`: filled. */
  type: 'bar' | 'line' | 'area';
  stacked?: boolean;
  valueFormatter: (value: number) => string;
  h?: number;
  withLegend?: boolean;
}

const FONT = '11px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';

/** `teal.6` → the theme's color; anything else as given. */
function themeColor(theme: ReturnType<typeof useMantineTheme>, color: string): string {
  const [name, shade] = color.split('.');
  const palette = name ? theme.colors[name] : undefined;
  return palette?.[Number(shade ?? 6)] ?? color;
}

/**
 * A chart over time intervals drawn with uPlot on a canvas (a few tens of KB, where recharts was 130 KB gzipped):
 * bars, lines or an area, the theme's colors in light and dark, and a legend that reads out an interval's values on
 * hover. The canvas is hidden from assistive technology; the same values are in a visually hidden table captioned
 * with `label`, its text alternative.
 */
export function TimeChart(props: TimeChartProps) {
  const { label, data, dataKey, series, type, stacked = false, valueFormatter, h = 200, withLegend = true } = props;
  const theme = useMantineTheme();
  const scheme = useComputedColorScheme('light');
  const container = useRef<HTMLDivElement>(null);
  const [hovered, setHovered] = useState<number | null>(null);
  const columns = useMemo(() => chartColumns(data, dataKey, series, stacked), [data, dataKey, series, stacked]);
  const colors = series.map((s) => themeColor(theme, s.color));
  const format = useRef(valueFormatter);
  format.current = valueFormatter;

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    // The axes' text and grid in the current scheme, read from the theme's variables (a canvas takes no CSS).
    const style = getComputedStyle(element);
    const text = style.color;
    const grid = style.borderTopColor;
    const { labels, drawn } = columns;
    const top = drawnMax(drawn);
    const barPaths = uPlot.paths.bars?.({ size: [0.7, 48], align: 0 });
    // Stacked bars: the tallest (the last series' running sum) first, each smaller one painted over it.
    const order = stacked ? series.map((_, i) => series.length - 1 - i) : series.map((_, i) => i);
    const options: uPlot.Options = {
      width: Math.max(element.clientWidth, 100),
      height: h,
      legend: { show: false },
      cursor: { drag: { x: false, y: false }, points: { show: type !== 'bar' } },
      scales: {
        x: { time: false, range: () => [-0.5, Math.max(labels.length - 0.5, 0.5)] },
        y: { range: () => [0, top > 0 ? top * 1.08 : 1] },
      },
      axes: [
        {
          stroke: text,
          font: FONT,
          grid: { show: false },
          ticks: { show: false },
          space: 56,
          incrs: [1, 2, 3, 4, 6, 12, 24, 48, 96, 192],
          values: (_u, splits) => splits.map((i) => (Number.isInteger(i) ? (labels[i] ?? '') : '')),
        },
        {
          stroke: text,
          font: FONT,
          grid: { stroke: grid, width: 1 },
          ticks: { show: false },
          space: 36,
          values: (_u, splits) => splits.map((v) => format.current(v)),
          size: (_u, values) => (values ? Math.max(...values.map((v) => v.length)) * 6.5 + 14 : 40),
        },
      ],
      series: [
        {},
        ...order.map((i) => ({
          label: series[i]!.label,
          stroke: colors[i],
          width: type === 'bar' ? 0 : 2,
          fill: type === 'bar' ? colors[i] : type === 'area' ? `${colors[i]}40` : undefined,
          paths: type === 'bar' ? barPaths : undefined,
          spanGaps: false,
          // Lines break where nothing was measured: a lone interval between gaps shows as its dot.
          points: { show: type === 'line', size: 5, fill: colors[i] },
        })),
      ],
      hooks: { setCursor: [(u) => setHovered(u.cursor.idx ?? null)] },
    };
    const chart = new uPlot(options, [labels.map((_, i) => i), ...order.map((i) => drawn[i]!)], element);
    const resized = new ResizeObserver(() => chart.setSize({ width: Math.max(element.clientWidth, 100), height: h }));
    resized.observe(element);
    return () => {
      resized.disconnect();
      chart.destroy();
    };
    // colors follow the theme and the scheme (a dependency), the series by their names.
  }, [columns, scheme, type, stacked, h, series.map((s) => `${s.name}:${s.color}`).join()]);

  const { labels, values } = columns;
  const at = hovered !== null && hovered < labels.length ? hovered : null;
  return (
    <Box>
      <div
        ref={container}
        aria-hidden
        style={{ color: 'var(--mantine-color-dimmed)', borderColor: 'var(--mantine-color-default-border)', height: h }}
      />
      {withLegend && (
        <Group gap="md" justify="center" mt={4} aria-hidden>
          {at !== null && (
            <Text size="xs" fw={600}>
              {labels[at]}
            </Text>
          )}
          {series.map((s, i) => (
            <Group key={s.name} gap={6} wrap="nowrap">
              <Box w={10} h={10} style={{ borderRadius: 2, background: colors[i] }} />
              <Text size="xs">
                {s.label}
                {at !== null && `: ${values[i]![at] === null ? '—' : valueFormatter(values[i]![at]!)}`}
              </Text>
            </Group>
          ))}
        </Group>
      )}
      {!withLegend && at !== null && (
        <Text size="xs" ta="center" mt={4} aria-hidden>
          {labels[at]}: {values[0]![at] === null ? '—' : valueFormatter(values[0]![at]!)}
        </Text>
      )}
      <VisuallyHidden>
        <table>
          <caption>{label}</caption>
          <thead>
            <tr>
              <th scope="col">Interval</th>
              {series.map((s) => (
                <th key={s.name} scope="col">
                  {s.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {labels.map((time, row) => (
              <tr key={row}>
                <th scope="row">{time}</th>
                {values.map((column, i) => (
                  <td key={series[i]!.name}>{column[row] === null ? '—' : valueFormatter(column[row]!)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </VisuallyHidden>
    </Box>
  );
}
