import { createServer, connect, type Server, type Socket } from 'node:net';

/** A TCP proxy in front of Redis that a test can cut (connections dropped, new ones held silently) and restore. */
export interface RedisProxy {
  url: string;
  cut(): void;
  restore(): void;
  close(): Promise<void>;
}

export async function startRedisProxy(target: string): Promise<RedisProxy> {
  const upstream = new URL(target);
  let broken = false;
  const open = new Set<Socket>();
  const server: Server = createServer((client) => {
    open.add(client);
    client.on('close', () => open.delete(client));
    client.on('error', () => client.destroy());
    // Cut: accepted and never answered (the slowest failure a client can meet).
    if (broken) return;
    const remote = connect(Number(upstream.port || 6379), upstream.hostname);
    open.add(remote);
    remote.on('close', () => {
      open.delete(remote);
      client.destroy();
    });
    remote.on('error', () => remote.destroy());
    client.on('close', () => remote.destroy());
    client.pipe(remote);
    remote.pipe(client);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const url = new URL(target);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  return {
    url: url.toString(),
    cut() {
      broken = true;
      for (const socket of open) socket.destroy();
    },
    restore() {
      broken = false;
      // Held connections go, so clients reconnect through a working proxy.
      for (const socket of open) socket.destroy();
    },
    async close() {
      for (const socket of open) socket.destroy();
      await new Promise<void>((ok) => server.close(() => ok()));
    },
  };
}
