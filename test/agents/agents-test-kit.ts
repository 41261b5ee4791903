import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer, type ServerOptions as HttpsOptions } from 'node:https';
import type { AddressInfo } from 'node:net';

export const SETUP_TOKEN = 'setup-token-123456';
/** Management credentials of the open-source setup lock. */
export const MGMT = { headers: { 'X-Gateway-Setup-Token': SETUP_TOKEN } };

/** A minimal, valid A2A v1 card whose interfaces point at `base`. */
export function v1Card(base = 'http://127.0.0.1:9'): Record<string, any> {
  return {
    name: 'Card Agent',
    description: 'hand-written v1 card',
    version: '1.0.0',
    supportedInterfaces: [
      { url: `${base}/jsonrpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      { url: `${base}/rest`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0', tenant: 't1' },
    ],
    capabilities: { streaming: true },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 's1', name: 'Skill', description: 'does things', tags: ['x'] }],
  };
}

export interface SeenRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
}

export interface CardServer {
  url: string;
  /** `<url>/card.json`. */
  cardUrl: string;
  requests: SeenRequest[];
  close(): Promise<void>;
}

export type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** A tiny node:http (or https) server on 127.0.0.1:0 that records requests and delegates to `handler`. */
export async function startCardServer(handler: Handler, tls?: HttpsOptions): Promise<CardServer> {
  const requests: SeenRequest[] = [];
  const listener = (req: IncomingMessage, res: ServerResponse) => {
    requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers });
    handler(req, res);
  };
  const server = tls ? createHttpsServer(tls, listener) : createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `${tls ? 'https' : 'http'}://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    cardUrl: `${url}/card.json`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Serves `body` (JSON-encoded unless a string) with `status` for every request. */
export function respond(status: number, body: unknown, headers: Record<string, string> = {}): Handler {
  return (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body));
  };
}
