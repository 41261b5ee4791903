import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface VaultServer {
  url: string;
  token: string;
  /** Successful and failed reads, by `<mount>/<path>`. */
  reads: Map<string, number>;
  /** Reads of one secret (`<mount>/<path>`). */
  readCount(secret: string): number;
  /** Writes (or replaces) a KV v2 secret's fields. */
  put(secret: string, data: Record<string, unknown>): void;
  /** Every X-Vault-Token header received (to assert the token was sent). */
  tokensSeen: string[];
  close(): Promise<void>;
}

/**
 * A local HTTP server speaking the HashiCorp Vault KV v2 read API: `GET /v1/<mount>/data/<path>` with
 * `X-Vault-Token`, answering `{ data: { data, metadata } }`; 403 `permission denied` on a wrong or missing token,
 * 404 on an unknown path, with Vault's `{ errors: [...] }` bodies. Mounts are the first path segment.
 */
export async function startVaultServer(
  initial: Record<string, Record<string, unknown>> = {},
  token = 'vault-root-token-123',
): Promise<VaultServer> {
  const secrets = new Map<string, { data: Record<string, unknown>; version: number }>();
  const reads = new Map<string, number>();
  const tokensSeen: string[] = [];
  const put = (secret: string, data: Record<string, unknown>) => {
    const version = (secrets.get(secret)?.version ?? 0) + 1;
    secrets.set(secret, { data, version });
  };
  for (const [secret, data] of Object.entries(initial)) put(secret, data);

  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://vault');
    const match = /^\/v1\/([^/]+)\/data\/(.+)$/.exec(url.pathname);
    const given = req.headers['x-vault-token'];
    if (typeof given === 'string') tokensSeen.push(given);
    if (req.method !== 'GET' || !match) return send(res, 404, { errors: [] });
    const secret = `${decodeURIComponent(match[1]!)}/${match[2]!.split('/').map(decodeURIComponent).join('/')}`;
    reads.set(secret, (reads.get(secret) ?? 0) + 1);
    if (given !== token) return send(res, 403, { errors: ['permission denied'] });
    const entry = secrets.get(secret);
    if (!entry) return send(res, 404, { errors: [] });
    send(res, 200, {
      request_id: '7e1c6d0b-0000-4000-8000-000000000000',
      lease_id: '',
      renewable: false,
      lease_duration: 0,
      data: {
        data: entry.data,
        metadata: {
          created_time: '2026-11-21T00:00:00.000000Z',
          custom_metadata: null,
          deletion_time: '',
          destroyed: false,
          version: entry.version,
        },
      },
      wrap_info: null,
      warnings: null,
      auth: null,
    });
  };
  const server: Server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    token,
    reads,
    readCount: (secret) => reads.get(secret) ?? 0,
    put,
    tokensSeen,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}
