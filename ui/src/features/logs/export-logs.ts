import type { LogsQuery, RequestLog } from './live-filter';

export type ExportFormat = 'csv' | 'jsonl';

/** Rows per request while exporting: the API's largest page. */
export const EXPORT_PAGE_SIZE = 1000;

/** The CSV's columns, in order: the list view's fields a spreadsheet needs (JSONL has every field). */
export const CSV_COLUMNS = [
  'id',
  'timestamp',
  'status',
  'status_code',
  'object',
  'provider',
  'model',
  'fallback_index',
  'parent_request_id',
  'virtual_key_id',
  'virtual_key_name',
  'selected_key_name',
  'latency',
  'time_to_first_token',
  'prompt_tokens',
  'completion_tokens',
  'total_tokens',
  'cost',
  'cache_hit',
  'error_type',
  'content_summary',
] as const satisfies ReadonlyArray<keyof RequestLog>;

/** One CSV field (RFC 4180): quoted when it holds a comma, a quote or a line break; null is empty. */
export function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A row as one line of the export, with its line break. */
export function exportLine(row: RequestLog, format: ExportFormat): string {
  if (format === 'jsonl') return `${JSON.stringify(row)}\n`;
  return `${CSV_COLUMNS.map((column) => csvField(row[column])).join(',')}\r\n`;
}

export interface ExportPage {
  logs: RequestLog[];
  pagination: { total_count: number };
}

export interface ExportRun {
  query: LogsQuery;
  format: ExportFormat;
  /** Reads one page of the list (`GET /api/logs`). */
  fetchPage: (query: LogsQuery, signal: AbortSignal) => Promise<ExportPage>;
  onProgress: (done: number, total: number) => void;
  signal: AbortSignal;
  now?: number;
}

/**
 * Every row of the current filter, read through the API's paging (1,000 a request, in the list's order) into export
 * lines. The end of the range is pinned to the start of the export when the filter leaves it open, so rows logged
 * meanwhile do not shift the pages; a row seen twice (a deletion shifted them) is written once. Cancelled by `signal`.
 */
export async function exportLogs(run: ExportRun): Promise<string[]> {
  const query: LogsQuery = {
    ...run.query,
    end_time: run.query.end_time ?? new Date(run.now ?? Date.now()).toISOString(),
    limit: EXPORT_PAGE_SIZE,
  };
  const lines: string[] = run.format === 'csv' ? [`${CSV_COLUMNS.join(',')}\r\n`] : [];
  const seen = new Set<string>();
  for (let offset = 0; ; offset += EXPORT_PAGE_SIZE) {
    run.signal.throwIfAborted();
    const page = await run.fetchPage({ ...query, offset }, run.signal);
    for (const row of page.logs) {
      if (seen.has(row.id)) continue;
      seen.add(row.id);
      lines.push(exportLine(row, run.format));
    }
    run.onProgress(seen.size, Math.max(page.pagination.total_count, seen.size));
    if (page.logs.length < EXPORT_PAGE_SIZE) return lines;
  }
}
