import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A small OAuth 2.0 authorization server on 127.0.0.1:0 for client-credentials tests: `POST /token` (form body),
 * RFC 8414 metadata at `/.well-known/oauth-authorization-server` and an OpenID-style document at
 * `/openid-configuration` (whose token endpoint is `/oidc-token`). Every request is recorded.
 */
export interface OAuthServerOptions {
  clientId?: string;
  clientSecret?: string;
  /** `expires_in` of issued tokens (default 3600). */
  expiresIn?: number;
  /** Delay before answering a token request (single-flight tests). */
  delayMs?: number;
}

export interface TokenRequest {
  path: string;
  headers: IncomingHttpHeaders;
  form: Record<string, string>;
}

export interface OAuthServer {
  url: string;
  tokenUrl: string;
  /** Token requests in arrival order. */
  tokenRequests: TokenRequest[];
  /** Paths of every request (metadata included). */
  paths: string[];
  /** Tokens issued so far, in order. */
  issued: string[];
  close(): Promise<void>;
}

export async function startOAuthServer(options: OAuthServerOptions = {}): Promise<OAuthServer> {
  const clientId = options.clientId ?? 'client-1';
  const clientSecret = options.clientSecret ?? 'secret-1';
  const tokenRequests: TokenRequest[] = [];
  const paths: string[] = [];
  const issued: string[] = [];
  let base = '';
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    paths.push(path);
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.method === 'GET' && path === '/.well-known/oauth-authorization-server') {
      return json(200, {
        issuer: base,
        token_endpoint: `${base}/token`,
        grant_types_supported: ['client_credentials'],
      });
    }
    if (req.method === 'GET' && path === '/openid-configuration') {
      return json(200, { issuer: base, token_endpoint: `${base}/oidc-token` });
    }
    if (req.method === 'POST' && (path === '/token' || path === '/oidc-token')) {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const form = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
        tokenRequests.push({ path, headers: req.headers, form });
        const answer = () => {
          if (form.grant_type !== 'client_credentials') return json(400, { error: 'unsupported_grant_type' });
          if (form.client_id !== clientId || form.client_secret !== clientSecret) {
            return json(401, { error: 'invalid_client' });
          }
          const token = `tok-${issued.length + 1}-${Math.random().toString(36).slice(2, 10)}`;
          issued.push(token);
          json(200, { access_token: token, token_type: 'Bearer', expires_in: options.expiresIn ?? 3600 });
        };
        if (options.delayMs) setTimeout(answer, options.delayMs);
        else answer();
      });
      return;
    }
    json(404, { error: 'not_found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    tokenUrl: `${base}/token`,
    tokenRequests,
    paths,
    issued,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
