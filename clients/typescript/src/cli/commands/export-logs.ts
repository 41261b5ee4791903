import { createWriteStream, type WriteStream } from 'node:fs';
import { readFile, rename, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { once } from 'node:events';
import { setFlagsFromString } from 'node:v8';
import type { GatewayClient } from '../../client.js';
import { clientFor } from '../context.js';
import { csvLine } from '../csv.js';
import { CommandFailure } from '../failure.js';
import { advance, decodeCursor, encodeCursor, type LogCursor } from '../log-cursor.js';
import { Progress, progressEnabled } from '../progress.js';
import { LOG_FILTERS, MCP_LOG_FILTERS } from '../resource-specs.js';
import { UsageError, type Invocation, type Options } from '../spec.js';

interface LogKind {
  label: string;
  path: '/api/logs' | '/api/mcp-logs';
  filters: Options;
  /** CSV columns, in order (JSONL writes every field). */
  columns: readonly string[];
  /** The list takes `count_limit`: pages after the first need no count (the first's total is the progress bar's). */
  countLimit: boolean;
}

const REQUEST_LOGS: LogKind = {
  label: 'logs export',
  path: '/api/logs',
  filters: LOG_FILTERS,
  countLimit: true,
  columns: [
    'id',
    'timestamp',
    'status',
    'status_code',
    'object',
    'provider',
    'model',
    'alias',
    'virtual_key_id',
    'virtual_key_name',
    'team_id',
    'customer_id',
    'selected_key_id',
    'selected_key_name',
    'routing_rule_id',
    'latency',
    'time_to_first_token',
    'prompt_tokens',
    'completion_tokens',
    'total_tokens',
    'cost',
    'cache_hit',
    'cache_type',
    'stream',
    'fallback_index',
    'number_of_retries',
    'stop_reason',
    'error_type',
    'parent_request_id',
    'content_summary',
    'metadata',
    'error_details',
  ],
};

const MCP_LOGS: LogKind = {
  label: 'mcp-logs export',
  path: '/api/mcp-logs',
  filters: MCP_LOG_FILTERS,
  countLimit: false,
  columns: [
    'id',
    'timestamp',
    'status',
    'server_label',
    'tool_name',
    'llm_request_id',
    'virtual_key_id',
    'virtual_key_name',
    'latency',
    'cost',
    'arguments',
    'result',
    'error_details',
    'metadata',
  ],
};

/** The API query of the export's filter options (`--team-ids` → `team_ids`). */
function filterQuery(kind: LogKind, options: Invocation['options']): Record<string, string | boolean> {
  const query: Record<string, string | boolean> = {};
  for (const name of Object.keys(kind.filters)) {
    const value = options[name];
    if (value !== undefined && value !== false) query[name.replace(/-/g, '_')] = value as string | boolean;
  }
  return query;
}

type Row = Record<string, unknown> & { timestamp: string };

/** Lines go to the output about this many characters at a time: buffers of a page's size each would stay resident. */
const WRITE_CHUNK = 64 * 1024;

async function fetchPage(
  client: GatewayClient,
  kind: LogKind,
  query: Record<string, unknown>,
): Promise<{ rows: Row[]; total: number }> {
  // Through the typed client; the query is built from the same filter table the API documents.
  const { data } = await client.api.GET(kind.path, { params: { query: query as never } });
  const page = data as unknown as { logs: Row[]; pagination: { total_count: number } };
  return { rows: page.logs, total: page.pagination.total_count };
}

/** The output and its resume file (`<out>.cursor`: the cursor and the file's length when it was written). */
class Sink {
  private stream: WriteStream | NodeJS.WriteStream;
  bytes = 0;
  constructor(
    readonly out: string | undefined,
    startBytes: number,
  ) {
    this.bytes = startBytes;
    this.stream = out
      ? createWriteStream(out, { flags: startBytes > 0 ? 'r+' : 'w', start: startBytes })
      : process.stdout;
  }

  async write(text: string): Promise<void> {
    this.bytes += Buffer.byteLength(text);
    if (!this.stream.write(text)) await once(this.stream, 'drain');
  }

  async checkpoint(cursor: LogCursor): Promise<void> {
    if (!this.out) return;
    const tmp = `${this.out}.cursor.tmp`;
    await writeFile(tmp, JSON.stringify({ cursor: encodeCursor(cursor), bytes: this.bytes }));
    await rename(tmp, `${this.out}.cursor`);
  }

  async close(finished: boolean): Promise<void> {
    if (this.stream !== process.stdout) {
      (this.stream as WriteStream).end();
      await once(this.stream, 'finish');
    }
    if (finished && this.out) await rm(`${this.out}.cursor`, { force: true });
  }
}

/** Where to start: a fresh export, `--cursor`, or `--resume` from the output's resume file. */
async function startingPoint(
  invocation: Invocation,
  out: string | undefined,
): Promise<{ cursor: LogCursor; bytes: number; offset: number }> {
  const o = invocation.options;
  const offset = o.offset === undefined ? 0 : Number(o.offset);
  if (!Number.isInteger(offset) || offset < 0)
    throw new UsageError('--offset must be an integer >= 0', invocation.path);
  if (o.resume) {
    if (!out) throw new UsageError('--resume needs --out (the file to continue)', invocation.path);
    const saved = await readFile(`${out}.cursor`, 'utf8').catch(() => undefined);
    if (!saved)
      throw new CommandFailure(`nothing to resume: ${out}.cursor does not exist (finished, or never started)`);
    const { cursor, bytes } = JSON.parse(saved) as { cursor: string; bytes: number };
    // Rows written after the last checkpoint are written again: cut them off first.
    if ((await stat(out)).size > bytes) await truncate(out, bytes);
    return { cursor: decodeCursor(cursor), bytes, offset: 0 };
  }
  if (typeof o.cursor === 'string') {
    try {
      return { cursor: decodeCursor(o.cursor), bytes: 0, offset: 0 };
    } catch (e) {
      throw new UsageError(`--cursor: ${(e as Error).message}`, invocation.path);
    }
  }
  const end = typeof o['end-time'] === 'string' ? o['end-time'] : new Date().toISOString();
  return { cursor: { seen: 0, end, written: offset }, bytes: 0, offset };
}

async function exportLogs(kind: LogKind, invocation: Invocation): Promise<number> {
  // Each page is a burst of short-lived objects (the parsed rows, their lines). V8 answers such a rate by doubling its
  // young generation up to 128 MB (Node 24) and letting the old one grow well past what is live: most of the CLI's
  // RSS, all garbage. Held at its first size and collected sooner, the heap stays small for about 15 % more CLI CPU
  // (docs/benchmarks.md, "CLI and declarative config"). V8 reads both flags each time it sizes a generation, so they
  // take effect in a running process.
  setFlagsFromString('--semi-space-growth-factor=1');
  setFlagsFromString('--heap-growing-percent=10');
  const o = invocation.options;
  const format = (o.format as string | undefined) ?? 'jsonl';
  const pageSize = o['page-size'] === undefined ? 1000 : Number(o['page-size']);
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 1000) {
    throw new UsageError('--page-size must be an integer from 1 to 1000', invocation.path);
  }
  const out = o.out as string | undefined;
  const { client } = await clientFor(invocation);
  const filters = filterQuery(kind, o);
  const start = await startingPoint(invocation, out);
  const { bytes, offset } = start;
  let { cursor } = start;
  const sink = new Sink(out, bytes);
  const progress = new Progress(kind.label, { enabled: progressEnabled(o) });
  if (format === 'csv' && bytes === 0 && cursor.written === offset) await sink.write(csvLine(kind.columns));

  let interrupted = false;
  const onSignal = () => {
    interrupted = true;
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  // Only the first page counts what is left (the progress bar's total); an exact count on every page added up the
  // rest of the range again each time.
  const query = (c: LogCursor, skip: number, counted: boolean) => ({
    ...filters,
    ...(c.after ? { start_time: c.after } : {}),
    end_time: c.end,
    sort_by: 'timestamp',
    order: 'asc',
    limit: pageSize,
    offset: skip,
    ...(counted || !kind.countLimit ? {} : { count_limit: 0 }),
  });
  let total: number | undefined;
  try {
    let next = fetchPage(client, kind, query(cursor, cursor.after ? cursor.seen : offset, true));
    for (;;) {
      const page = await next;
      // The first page's total counts what is left (from `after`, inclusive: its `seen` rows again).
      total ??= cursor.after ? cursor.written - cursor.seen + page.total : page.total;
      const after = advance(cursor, page.rows);
      const more = page.rows.length === pageSize;
      // The next page is asked for while this one is written.
      if (more && !interrupted) next = fetchPage(client, kind, query(after, after.seen, false));
      let text = '';
      for (const row of page.rows) {
        text += format === 'csv' ? csvLine(kind.columns.map((c) => row[c])) : `${JSON.stringify(row)}\n`;
        if (text.length >= WRITE_CHUNK) {
          await sink.write(text);
          text = '';
        }
      }
      await sink.write(text);
      cursor = after;
      await sink.checkpoint(cursor);
      progress.update(cursor.written, total, 'rows');
      if (!more) break;
      if (interrupted) {
        next.catch(() => undefined);
        await sink.close(false);
        progress.done(`interrupted after ${cursor.written} rows`);
        process.stderr.write(`resume with: ${out ? '--resume' : `--cursor ${encodeCursor(cursor)}`}\n`);
        return 130;
      }
    }
  } catch (error) {
    await sink.close(false);
    if (cursor.written > 0) {
      process.stderr.write(
        `gatewayctl: stopped after ${cursor.written} rows; resume with ${out ? '--resume' : `--cursor ${encodeCursor(cursor)}`}\n`,
      );
    }
    throw error;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  await sink.close(true);
  progress.done(`${cursor.written} rows`);
  return 0;
}

export const runRequestLogs = (invocation: Invocation) => exportLogs(REQUEST_LOGS, invocation);
export const runMcpLogs = (invocation: Invocation) => exportLogs(MCP_LOGS, invocation);
