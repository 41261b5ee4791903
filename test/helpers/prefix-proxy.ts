import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import { connect } from 'node:net';

/**
 * A reverse proxy that serves a gateway under a path prefix (`/gateway/…` → `/…`), as nginx's
 * `location /gateway/ { proxy_pass http://gateway/; }` does: HTTP requests and WebSocket upgrades pass through with
 * the prefix cut, everything else is a 404 of the proxy's own. Redirects are not rewritten (nginx's default only
 * rewrites absolute ones that point at the upstream).
 */
export async function startPrefixProxy(
  target: { port: number },
  prefix = '/gateway',
): Promise<{ url: string; close: () => Promise<void> }> {
  const strip = (req: IncomingMessage): string | undefined =>
    req.url?.startsWith(`${prefix}/`) ? req.url.slice(prefix.length) : undefined;
  const server: Server = createServer((req, res) => {
    const path = strip(req);
    if (path === undefined) {
      res.writeHead(req.url === prefix ? 301 : 404, req.url === prefix ? { location: `${prefix}/` } : {});
      res.end(req.url === prefix ? '' : 'not behind this proxy');
      return;
    }
    const upstream = request(
      { host: '127.0.0.1', port: target.port, method: req.method, path, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  server.on('upgrade', (req, socket, head) => {
    const path = strip(req);
    if (path === undefined) return socket.destroy();
    const upstream = connect(target.port, '127.0.0.1', () => {
      const headers = Object.entries(req.headers).flatMap(([k, v]) =>
        (Array.isArray(v) ? v : [v]).map((value) => `${k}: ${value}`),
      );
      upstream.write(`${req.method} ${path} HTTP/1.1\r\n${headers.join('\r\n')}\r\n\r\n`);
      upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}${prefix}/`,
    close: () =>
      new Promise((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}
