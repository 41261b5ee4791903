import { authHeaders } from '../../auth.js';
import { resolveConnection } from '../context.js';
import { CommandFailure } from '../failure.js';
import { outputFormat } from '../output.js';
import { UsageError, type Invocation } from '../spec.js';

interface TailKind {
  /** The live channel's message type. */
  type: 'log' | 'mcp_log';
  /** Option name → the row field it filters (comma-separated values, any of them). */
  filters: Record<string, string>;
  /** The one-line table form of a row. */
  line: (row: Record<string, unknown>) => string;
}

const fmt = (value: unknown) =>
  value === null || value === undefined ? '-' : typeof value === 'string' ? value : JSON.stringify(value);

const REQUEST_LOGS: TailKind = {
  type: 'log',
  filters: {
    providers: 'provider',
    models: 'model',
    status: 'status',
    objects: 'object',
    'virtual-key-ids': 'virtual_key_id',
    'team-ids': 'team_id',
    'customer-ids': 'customer_id',
  },
  line: (r) =>
    [
      r.timestamp,
      r.status,
      `${fmt(r.provider)}/${fmt(r.model)}`,
      `${fmt(r.latency)}ms`,
      `${fmt(r.total_tokens)}tok`,
      `$${fmt(r.cost)}`,
      fmt(r.virtual_key_name),
      r.id,
    ].join('  '),
};

const MCP_LOGS: TailKind = {
  type: 'mcp_log',
  filters: {
    'tool-names': 'tool_name',
    'server-labels': 'server_label',
    status: 'status',
    'virtual-key-ids': 'virtual_key_id',
  },
  line: (r) =>
    [
      r.timestamp,
      r.status,
      `${fmt(r.server_label)}-${fmt(r.tool_name)}`,
      `${fmt(r.latency)}ms`,
      fmt(r.virtual_key_name),
      r.id,
    ].join('  '),
};

/**
 * Follows new rows through the live channel (`GET /ws` with the same credentials as every call), filtered here,
 * printed as they come: one JSON line per row with `-o json`, one text line otherwise. Ends on Ctrl-C, `--limit` rows or
 * `--timeout`; a channel the gateway closes is a failure (exit 1).
 */
async function tail(kind: TailKind, invocation: Invocation): Promise<number> {
  const o = invocation.options;
  const limit = o.limit === undefined ? Infinity : Number(o.limit);
  const timeout = o.timeout === undefined ? undefined : Number(o.timeout);
  if (!(limit > 0)) throw new UsageError('--limit must be a positive number', invocation.path);
  if (timeout !== undefined && !(timeout > 0))
    throw new UsageError('--timeout must be a positive number', invocation.path);
  const wanted = Object.entries(kind.filters)
    .filter(([option]) => typeof o[option] === 'string')
    .map(([option, field]) => [field, new Set((o[option] as string).split(',').map((s) => s.trim()))] as const);
  const json = outputFormat(invocation) !== 'table';
  const connection = await resolveConnection(invocation);
  const { default: WebSocket } = await import('ws');
  const url = new URL('/ws', connection.url);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  const socket = new WebSocket(url, { headers: authHeaders(connection.auth) });
  return new Promise<number>((resolve, reject) => {
    let count = 0;
    let ending = false;
    const finish = (code: number) => {
      ending = true;
      socket.close(1000);
      resolve(code);
    };
    const timer = timeout ? setTimeout(() => finish(0), timeout * 1000) : undefined;
    process.once('SIGINT', () => finish(0));
    socket.on('unexpected-response', (_request, response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      response.on('end', () => {
        void finishRefusal();
      });
      const finishRefusal = async () => {
        const { GatewayApiError } = await import('../../errors.js');
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          // not JSON: kept as text
        }
        reject(new GatewayApiError({ status: response.statusCode ?? 0, method: 'GET', url: url.toString(), body }));
      };
    });
    socket.on('error', (error) => {
      if (!ending)
        reject(
          error instanceof Error && 'code' in error ? new CommandFailure(`live channel: ${error.message}`) : error,
        );
    });
    socket.on('message', (data) => {
      const message = JSON.parse((data as Buffer).toString('utf8')) as {
        type: string;
        action?: string;
        data?: Record<string, unknown>;
      };
      if (message.type === 'ready') {
        process.stderr.write(`following ${kind.type === 'log' ? 'request logs' : 'MCP tool logs'} (Ctrl-C to stop)\n`);
        return;
      }
      // MCP rows are complete when the call ended (`updated`); request rows when logged (`created`).
      if (message.type !== kind.type || !message.data) return;
      if (kind.type === 'mcp_log' && message.action !== 'created' && message.action !== 'updated') return;
      const row = message.data;
      if (!wanted.every(([field, values]) => values.has(String(row[field])))) return;
      process.stdout.write(json ? `${JSON.stringify({ action: message.action, ...row })}\n` : `${kind.line(row)}\n`);
      count += 1;
      if (count >= limit) {
        if (timer) clearTimeout(timer);
        finish(0);
      }
    });
    socket.on('close', (code, reason) => {
      if (timer) clearTimeout(timer);
      if (!ending) {
        ending = true;
        reject(
          new CommandFailure(
            `the gateway closed the live channel (${code}${reason.length ? ` ${reason.toString()}` : ''})`,
          ),
        );
      }
    });
  });
}

export const runRequestLogs = (invocation: Invocation) => tail(REQUEST_LOGS, invocation);
export const runMcpLogs = (invocation: Invocation) => tail(MCP_LOGS, invocation);
