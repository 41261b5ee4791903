import { createConnection, createServer, type AddressInfo, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy on loopback in front of an upstream (a provider simulator, an agent, an MCP server, a webhook
 * receiver): it passes bytes both ways unchanged and keeps every byte the gateway sent, so a test can search all of
 * what reached the upstream (request lines, headers, bodies, whatever the framing) without trusting the upstream's own
 * recording.
 */
export interface RecordingProxy {
  /** `http://127.0.0.1:<port>`: the upstream's URL with this proxy's port. */
  url: string;
  port: number;
  /** Every byte received from clients so far, as latin1 text (so any byte sequence can be searched). */
  sent(): string;
  close(): Promise<void>;
}

export async function startRecordingProxy(target: string | URL): Promise<RecordingProxy> {
  const upstream = new URL(target);
  const chunks: Buffer[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const peer = createConnection({ host: upstream.hostname, port: Number(upstream.port) });
    sockets.add(client).add(peer);
    client.on('data', (chunk: Buffer) => chunks.push(chunk));
    client.pipe(peer).pipe(client);
    const end = () => {
      client.destroy();
      peer.destroy();
      sockets.delete(client);
      sockets.delete(peer);
    };
    client.on('error', end).on('close', end);
    peer.on('error', end).on('close', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    sent: () => Buffer.concat(chunks).toString('latin1'),
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
