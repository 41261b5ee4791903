import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPrefixProxy } from '../helpers/prefix-proxy.js';
import { runModeEnv, startSpawned, type SpawnedGateway } from '../helpers/spawned-gateway.js';
import { RUN_MODE } from '../helpers/test-env.js';

const BUILD = resolve('dist/ui');

/** The hashed files index.html names (`./assets/index-….js`, `.css`). */
function assetsOf(html: string): string[] {
  return [...html.matchAll(/(?:src|href)="\.\/(assets\/[^"]+)"/g)].map((m) => m[1]!);
}

const get = (url: string, headers: Record<string, string> = {}) => fetch(url, { headers, redirect: 'manual' });

/**
 * The gateway serves the built dashboard (docs/dashboard.md, "Serving"): `/` and `/ui` lead to `/ui/`, every page
 * path answers index.html uncached, hashed assets are cached for a year and served precompressed from disk, a
 * reverse proxy's prefix needs nothing configured, and `--ui false` turns it all off. `npm run build` makes dist/ui.
 */
describe(`the dashboard's files (${RUN_MODE})`, () => {
  let env: Record<string, string>;
  let cleanUp: () => Promise<void>;
  let on: SpawnedGateway;
  let off: SpawnedGateway;
  beforeAll(async () => {
    ({ env, cleanUp } = await runModeEnv());
    [on, off] = await Promise.all([startSpawned(env), startSpawned(env, { args: ['--ui', 'false'] })]);
  });
  afterAll(async () => {
    for (const gw of [on, off]) gw?.gw.child.kill('SIGKILL');
    await cleanUp?.();
  });

  it('GET / and GET /ui redirect to ui/ (relative, so a proxy prefix is kept)', async () => {
    for (const path of ['/', '/ui']) {
      const res = await get(`http://127.0.0.1:${on.port}${path}`);
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe('ui/');
    }
  });

  it('every page path answers index.html, uncached, with a <base> back to the dashboard root and a strict policy', async () => {
    const built = readFileSync(`${BUILD}/index.html`, 'utf8');
    for (const [path, base] of [
      ['/ui/', './'],
      ['/ui/logs', './'],
      ['/ui/logs/', '../'],
      ['/ui/logs/5f0c/attempts?status=error', '../../'],
    ] as const) {
      const res = await get(`http://127.0.0.1:${on.port}${path}`);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
      expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      const html = await res.text();
      expect(html).toBe(built.replace('<base href="./" />', `<base href="${base}" />`));
    }
    const head = await fetch(`http://127.0.0.1:${on.port}/ui/`, { method: 'HEAD' });
    expect(head.status).toBe(200);
  });

  it('hashed assets: a year immutable, precompressed when the client takes it, the same bytes; a missing one is a 404', async () => {
    const assets = assetsOf(readFileSync(`${BUILD}/index.html`, 'utf8'));
    expect(assets.some((a) => a.endsWith('.js'))).toBe(true);
    expect(assets.some((a) => a.endsWith('.css'))).toBe(true);
    for (const asset of assets) {
      const url = `http://127.0.0.1:${on.port}/ui/${asset}`;
      const plain = await get(url, { 'accept-encoding': 'identity' });
      expect(plain.status, asset).toBe(200);
      expect(plain.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(plain.headers.get('content-type')).toMatch(asset.endsWith('.js') ? /javascript/ : /text\/css/);
      const bytes = Buffer.from(await plain.arrayBuffer());
      expect(bytes.equals(readFileSync(`${BUILD}/${asset}`))).toBe(true);

      const res = await fetch(url, { headers: { 'accept-encoding': 'br' } });
      expect(res.headers.get('content-encoding')).toBe('br');
      expect(res.headers.get('vary')).toMatch(/accept-encoding/i);
      // fetch decodes br itself; the decoded body is the file.
      expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
      expect(brotliDecompressSync(readFileSync(`${BUILD}/${asset}.br`)).equals(bytes)).toBe(true);
    }
    const missing = await get(`http://127.0.0.1:${on.port}/ui/assets/index-missing.js`);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { type: string } }).error.type).toBeTruthy();
    // Swagger UI stays where it was.
    expect((await get(`http://127.0.0.1:${on.port}/docs`)).status).toBe(200);
  });

  it('--ui false: /ui/ and its assets are 404, / goes to the API docs', async () => {
    const root = await get(`http://127.0.0.1:${off.port}/`);
    expect(root.status).toBe(302);
    expect(root.headers.get('location')).toBe('docs');
    for (const path of ['/ui', '/ui/', '/ui/logs', `/ui/${assetsOf(readFileSync(`${BUILD}/index.html`, 'utf8'))[0]}`]) {
      expect((await get(`http://127.0.0.1:${off.port}${path}`)).status, path).toBe(404);
    }
    expect((await get(`http://127.0.0.1:${off.port}/docs`)).status).toBe(200);
  });

  it('behind a reverse proxy at /gateway/: the redirect, the page and its assets resolve under the prefix', async () => {
    const proxy = await startPrefixProxy({ port: on.port });
    try {
      const root = await fetch(proxy.url);
      expect(root.url).toBe(`${proxy.url}ui/`);
      expect(root.status).toBe(200);
      // A deep link: its <base> brings relative asset URLs back to /gateway/ui/.
      const page = `${proxy.url}ui/logs/5f0c/attempts`;
      const html = await (await fetch(page)).text();
      const base = /<base href="([^"]+)"/.exec(html)![1]!;
      for (const asset of assetsOf(html)) {
        const url = new URL(asset, new URL(base, page));
        expect(url.pathname.startsWith('/gateway/ui/assets/')).toBe(true);
        expect((await fetch(url)).status, url.href).toBe(200);
      }
      // The API the page calls is the folder above its root: /gateway/api/….
      const api = new URL('../api/session/is-auth-enabled', new URL(base, page));
      expect(api.pathname).toBe('/gateway/api/session/is-auth-enabled');
      expect((await fetch(api)).status).toBe(200);
    } finally {
      await proxy.close();
    }
  });
});
