import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One span as an OTLP/HTTP JSON export carries it, with its attributes flattened to plain values. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  /** OTLP SpanKind: 1 internal, 2 server, 3 client. */
  kind: number;
  attributes: Record<string, unknown>;
  /** OTLP status code: 0 unset, 1 ok, 2 error. */
  status: { code: number; message?: string };
  resource: Record<string, unknown>;
  scope: string;
}

export interface OtlpReceiver {
  /** Base URL (what `otel.endpoint` takes). */
  url: string;
  /** Every export request received: path, headers and raw body text. */
  exports: Array<{ path: string; headers: IncomingHttpHeaders; body: string }>;
  spans(): ReceivedSpan[];
  /** Polls until `found` returns a value other than undefined, or fails after `timeoutMs`. */
  waitFor<T>(found: (spans: ReceivedSpan[]) => T | undefined, timeoutMs?: number): Promise<T>;
  close(): Promise<void>;
}

type OtlpValue = {
  stringValue?: string;
  intValue?: number | string;
  doubleValue?: number;
  boolValue?: boolean;
  arrayValue?: { values?: OtlpValue[] };
};

function plain(value: OtlpValue): unknown {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.arrayValue) return (value.arrayValue.values ?? []).map(plain);
  return undefined;
}

function attributesOf(list: Array<{ key: string; value: OtlpValue }> | undefined): Record<string, unknown> {
  return Object.fromEntries((list ?? []).map((a) => [a.key, plain(a.value)]));
}

/**
 * A local OTLP/HTTP traces receiver: a plain node:http server that accepts what the real exporter posts (JSON to
 * `/v1/traces`) and keeps it for assertions.
 */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const exports: OtlpReceiver['exports'] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      exports.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const spans = (): ReceivedSpan[] =>
    exports.flatMap((e) => {
      const payload = JSON.parse(e.body) as {
        resourceSpans?: Array<{
          resource?: { attributes?: Array<{ key: string; value: OtlpValue }> };
          scopeSpans?: Array<{ scope?: { name?: string }; spans?: Array<Record<string, any>> }>;
        }>;
      };
      return (payload.resourceSpans ?? []).flatMap((rs) =>
        (rs.scopeSpans ?? []).flatMap((ss) =>
          (ss.spans ?? []).map((s): ReceivedSpan => ({
            traceId: s.traceId,
            spanId: s.spanId,
            parentSpanId: s.parentSpanId || undefined,
            name: s.name,
            kind: s.kind,
            attributes: attributesOf(s.attributes),
            status: s.status ?? { code: 0 },
            resource: attributesOf(rs.resource?.attributes),
            scope: ss.scope?.name ?? '',
          })),
        ),
      );
    });
  return {
    url: `http://127.0.0.1:${port}`,
    exports,
    spans,
    async waitFor<T>(found: (spans: ReceivedSpan[]) => T | undefined, timeoutMs = 5000): Promise<T> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const value = found(spans());
        if (value !== undefined) return value;
        if (Date.now() > deadline) throw new Error(`no matching spans after ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
