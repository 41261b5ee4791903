import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { DASHBOARD_PREFIX, DashboardBuild } from './dashboard-build.js';

/**
 * The dashboard's page policy: its own scripts only (no inline script), Mantine's runtime styles, fetch and the live
 * channel to the same origin, never framed.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "form-action 'self'",
].join('; ');

/**
 * Serves the built dashboard under `/ui/` (docs/dashboard.md), registered on Fastify directly like the Swagger UI:
 * public, outside the guard, since the page holds no data (every API call it makes is authenticated).
 * - `/ui/assets/*`: hashed file names, streamed from disk with a year's `immutable` cache and the build's `.br`/`.gz`
 *   twins when the client takes them; a missing asset is a 404 (never the page, so a stale chunk fails loudly).
 * - any other `/ui/…`: index.html with `no-cache`, whatever the path (the router reads the path), `/ui` → `ui/`.
 */
export async function serveDashboard(app: NestFastifyApplication, logger: Logger): Promise<void> {
  const build = app.get(DashboardBuild);
  if (build.missing) logger.warn({ dashboard: build.missing }, `dashboard: not served, ${build.missing}`);
  if (!build.root) return;

  await app.register(fastifyStatic, {
    root: join(build.root, 'assets'),
    prefix: `${DASHBOARD_PREFIX}/assets/`,
    decorateReply: false,
    index: false,
    wildcard: true,
    dotfiles: 'deny',
    preCompressed: true,
    cacheControl: true,
    maxAge: '365d',
    immutable: true,
  });

  const page = (request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?', 1)[0]!;
    // Relative, so a reverse proxy's path prefix is kept (`/gateway/ui` → `/gateway/ui/`).
    if (path === DASHBOARD_PREFIX) return reply.redirect('ui/', 302);
    return reply
      .header('cache-control', 'no-cache')
      .header('content-security-policy', CONTENT_SECURITY_POLICY)
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'same-origin')
      .type('text/html; charset=utf-8')
      .send(build.indexHtml(path));
  };
  const fastify = app.getHttpAdapter().getInstance();
  fastify.get(DASHBOARD_PREFIX, page);
  fastify.get(`${DASHBOARD_PREFIX}/*`, page);
}
