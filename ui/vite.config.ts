import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const OUT_DIR = join(import.meta.dirname, '..', 'dist', 'ui');
/** The gateway the dev server sends API calls to (docs/dashboard.md, "Developing"). */
const GATEWAY = process.env.GATEWAY_URL ?? 'http://127.0.0.1:8080';

/**
 * `.br` and `.gz` twins of every built asset, written once at build time; the gateway serves them to clients that take
 * them (`preCompressed`), so nothing is compressed per request.
 */
function precompress(): Plugin {
  return {
    name: 'gateway-precompress',
    apply: 'build',
    closeBundle() {
      const assets = join(OUT_DIR, 'assets');
      for (const name of readdirSync(assets)) {
        if (!/\.(js|css|svg|json)$/.test(name)) continue;
        const body = readFileSync(join(assets, name));
        if (body.length < 1024) continue;
        writeFileSync(join(assets, `${name}.gz`), gzipSync(body, { level: 9 }));
        writeFileSync(
          join(assets, `${name}.br`),
          brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
        );
      }
    },
  };
}

/**
 * The dev server serves the page at `/ui/` itself: its `<base>` must point there (the gateway writes one per page,
 * relative to the page's path, from the same placeholder).
 */
function devBase(): Plugin {
  return {
    name: 'gateway-dev-base',
    apply: 'serve',
    transformIndexHtml: (html) => html.replace('<base href="./" />', '<base href="/ui/" />'),
  };
}

export default defineConfig(({ command }) => ({
  root: import.meta.dirname,
  // Relative asset URLs: the page's <base> makes them hold under /ui/ and under any reverse-proxy prefix.
  base: command === 'build' ? './' : '/ui/',
  plugins: [react(), devBase(), precompress()],
  build: {
    outDir: OUT_DIR,
    emptyOutDir: true,
    // No inline module-preload polyfill: the page's policy allows no inline script (every supported browser has it).
    modulePreload: { polyfill: false },
    target: 'es2022',
    reportCompressedSize: false,
    // For bench/dashboard.mjs (chunk sizes per route); never served (only /ui/assets/* is).
    manifest: true,
  },
  server: {
    proxy: {
      '/api': GATEWAY,
      '/v1': GATEWAY,
      '/ws': { target: GATEWAY.replace(/^http/, 'ws'), ws: true },
    },
  },
}));
