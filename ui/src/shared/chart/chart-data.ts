/** A chart's data as the overview builds it: one row per interval, its label under `dataKey`, a value per series. */
export type ChartRow = Record<string, string | number | null>;

/** One measure drawn: the row key it reads, its legend label, and a Mantine color (`teal.6`). */
export interface ChartSeries {
  name: string;
  label: string;
  color: string;
}

export interface ChartColumns {
  /** Each interval's label, the x axis. */
  labels: string[];
  /** Each series' own values, per interval (null: nothing measured then). */
  values: Array<Array<number | null>>;
  /** What is drawn per series: its values, or stacked, the running sum of it and every series before it. */
  drawn: Array<Array<number | null>>;
}

/**
 * The rows as columns, the shape uPlot draws. Stacked, each series is drawn from 0 to the sum of itself and those before
 * it (a missing value counts as 0 once a series below it has one; an interval where all are missing stays missing).
 */
export function chartColumns(rows: ChartRow[], dataKey: string, series: ChartSeries[], stacked = false): ChartColumns {
  const labels = rows.map((row) => String(row[dataKey] ?? ''));
  const values = series.map((s) =>
    rows.map((row) => (typeof row[s.name] === 'number' ? (row[s.name] as number) : null)),
  );
  if (!stacked) return { labels, values, drawn: values };
  const sums: Array<number | null> = rows.map(() => null);
  const drawn = values.map((column) =>
    column.map((value, i) => {
      if (value !== null) sums[i] = (sums[i] ?? 0) + value;
      return sums[i] ?? null;
    }),
  );
  return { labels, values, drawn };
}

/** The largest value drawn (the top of the y scale), 0 when nothing is. */
export function drawnMax(drawn: Array<Array<number | null>>): number {
  let max = 0;
  for (const column of drawn) for (const value of column) if (value !== null && value > max) max = value;
  return max;
}
