import { describe, expect, it } from 'vitest';
import { CSV_COLUMNS, csvField, exportLogs, type ExportPage } from './export-logs';
import type { LogsQuery, RequestLog } from './live-filter';

const row = (i: number): RequestLog => ({ id: `id-${i}`, content_summary: `say "hi", ${i}`, cost: null }) as RequestLog;

describe('log export', () => {
  it('CSV fields are quoted only when they must be', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField(null)).toBe('');
    expect(csvField(0)).toBe('0');
  });

  it('reads every page of the filter with the end pinned, reports progress, writes each row once', async () => {
    const rows = Array.from({ length: 2500 }, (_, i) => row(i));
    const asked: LogsQuery[] = [];
    const progress: Array<[number, number]> = [];
    const fetchPage = async (query: LogsQuery): Promise<ExportPage> => {
      asked.push(query);
      const start = query.offset ?? 0;
      // The second page repeats the first page's last row (a deletion shifted the pages).
      const from = start === 1000 ? 999 : start;
      return { logs: rows.slice(from, start + 1000), pagination: { total_count: 2500 } };
    };
    const lines = await exportLogs({
      query: { providers: 'openai', sort_by: 'timestamp', order: 'desc' },
      format: 'jsonl',
      fetchPage,
      onProgress: (done, total) => progress.push([done, total]),
      signal: new AbortController().signal,
      now: Date.parse('2026-06-01T12:00:00Z'),
    });
    expect(lines).toHaveLength(2500);
    expect(new Set(lines).size).toBe(2500);
    expect(JSON.parse(lines[0]!)).toEqual(rows[0]);
    expect(asked.map((q) => [q.offset, q.limit, q.end_time, q.providers])).toEqual([
      [0, 1000, '2026-06-01T12:00:00.000Z', 'openai'],
      [1000, 1000, '2026-06-01T12:00:00.000Z', 'openai'],
      [2000, 1000, '2026-06-01T12:00:00.000Z', 'openai'],
    ]);
    expect(progress).toEqual([
      [1000, 2500],
      [2000, 2500],
      [2500, 2500],
    ]);
  });

  it('CSV has a header line, then a line per row; cancel stops between pages', async () => {
    const controller = new AbortController();
    const csv = await exportLogs({
      query: {},
      format: 'csv',
      fetchPage: async () => ({ logs: [row(1)], pagination: { total_count: 1 } }),
      onProgress: () => undefined,
      signal: controller.signal,
    });
    expect(csv[0]).toBe(`${CSV_COLUMNS.join(',')}\r\n`);
    expect(csv).toHaveLength(2);
    expect(csv[1]).toContain('"say ""hi"", 1"');

    const pages: number[] = [];
    await expect(
      exportLogs({
        query: {},
        format: 'jsonl',
        fetchPage: async (q) => {
          pages.push(q.offset ?? 0);
          controller.abort();
          return { logs: Array.from({ length: 1000 }, (_, i) => row(i)), pagination: { total_count: 5000 } };
        },
        onProgress: () => undefined,
        signal: controller.signal,
      }),
    ).rejects.toThrow();
    expect(pages).toEqual([0]);
  });
});
