import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { Injectable } from '@nestjs/common';
import { GatewayConfig } from '../config/gateway-config.js';

/** The mount point of the dashboard; GET / redirects here while it is served. */
export const DASHBOARD_PREFIX = '/ui';
/** The placeholder `<base>` of ui/index.html, replaced per request by one that points at the dashboard's root. */
const BASE_PLACEHOLDER = '<base href="./" />';

/**
 * Where `vite build` writes the dashboard (ui/vite.config.ts): `dist/ui`, beside the compiled gateway (`dist/src`);
 * run from the sources (the tests), the checkout's `dist/ui`.
 */
function buildFolder(): string {
  const sources = resolve(import.meta.dirname, '..', '..'); // <root>/dist/src, or <root>/src
  const parent = dirname(sources);
  return join(basename(parent) === 'dist' ? parent : join(parent, 'dist'), 'ui');
}

/**
 * The built dashboard, when the gateway serves one: `ui.enabled` and a build on disk. Only `index.html` (a few hundred
 * bytes) is held in memory, split around its `<base>` placeholder; the assets are streamed from disk per request.
 */
@Injectable()
export class DashboardBuild {
  /** The build folder (holds index.html and assets/), or undefined when the dashboard is not served. */
  readonly root: string | undefined;
  /** Why the dashboard is not served although enabled (no build found), for the start-up warning. */
  readonly missing: string | undefined;
  private readonly indexParts: [string, string] | undefined;

  constructor(config: GatewayConfig) {
    // A worker process serves no HTTP.
    if (!config.ui.enabled || config.role === 'worker') return;
    const root = buildFolder();
    const index = join(root, 'index.html');
    if (!existsSync(index)) {
      this.missing = `${index} not found (run npm run build)`;
      return;
    }
    const html = readFileSync(index, 'utf8');
    const at = html.indexOf(BASE_PLACEHOLDER);
    if (at < 0) {
      this.missing = `${index} has no ${BASE_PLACEHOLDER} (built from another ui/index.html?)`;
      return;
    }
    this.root = root;
    this.indexParts = [html.slice(0, at), html.slice(at + BASE_PLACEHOLDER.length)];
  }

  get served(): boolean {
    return this.root !== undefined;
  }

  /**
   * index.html for a page at `path` (below the mount point, e.g. `/ui/logs/1f2e`), its `<base>` pointing back at the
   * dashboard's root relative to that page: asset URLs and the router's base then hold behind any reverse-proxy path
   * prefix, with nothing configured.
   */
  indexHtml(path: string): string {
    if (!this.indexParts) throw new Error('the dashboard is not served');
    return `${this.indexParts[0]}<base href="${relativeRoot(path)}" />${this.indexParts[1]}`;
  }
}

/**
 * The relative URL from a page under the mount point back to the mount point's folder: `./` for `/ui/`, `../` for
 * `/ui/logs/1f2e` or `/ui/logs/`, `../../` for `/ui/a/b/c`.
 */
export function relativeRoot(path: string): string {
  const rest = path.slice(DASHBOARD_PREFIX.length + 1);
  const depth = rest.split('/').length - 1;
  return depth > 0 ? '../'.repeat(depth) : './';
}
