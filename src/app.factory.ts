import { randomUUID } from 'node:crypto';
import fastifyCookie from '@fastify/cookie';
import type { DynamicModule, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Logger } from 'pino';
import { AppModule } from './app.module.js';
import { registerRouteGate, RouteGate } from './core/auth/route-gate.js';
import type { Clock } from './core/clock/clock.js';
import type { GatewayConfig } from './core/config/gateway-config.js';
import { GatewayErrorFilter } from './core/errors/gateway-error.filter.js';
import { createValidationPipe } from './core/errors/validation.js';
import { clientErrorHandler, frameworkErrorHandler } from './core/http/framework-errors.js';
import { registerJsonBodyParser } from './core/http/json-body-parser.js';
import { registerHttpHooks } from './core/http/http-hooks.js';
import { registerDrainGate } from './core/http/drain-gate.js';
import { MAX_PATH_PARAM_CHARS } from './core/http/limits.js';
import { registerNulCheck } from './core/http/nul-check.js';
import { RouteTable } from './core/http/route-table.js';
import { NestPinoLogger } from './core/logging/nest-logger.js';
import { serveDashboard } from './core/dashboard/serve-dashboard.js';
import { MetricsService } from './core/metrics/metrics.service.js';
import { serveOpenApi } from './core/openapi/openapi.js';
import type { PGliteEngine } from './core/persistence/pglite-engine.js';

export interface CreateAppOptions {
  config: GatewayConfig;
  logger: Logger;
  /** `null` keeps the embedded database in memory (tests and OpenAPI generation). */
  pgliteDataDir?: string | null;
  /** A PGlite data dir dump to start from instead of running initdb (tests). */
  pgliteTemplate?: Blob;
  /** An open in-memory embedded database lent by the caller (tests); closing the app hands it back. */
  pgliteEngine?: PGliteEngine;
  /** Extra modules mounted beside the gateway's own (tests). */
  extraModules?: Array<Type | DynamicModule>;
  /** The clock of budget and rate-limit windows (tests pass a ManualClock); default the system clock. */
  clock?: Clock;
}

export interface GatewayApp {
  app: NestFastifyApplication;
  routes: RouteTable;
}

/** Builds the fully configured application (not yet listening). Used by main, the CLI and the tests alike. */
export async function createGatewayApp(options: CreateAppOptions): Promise<GatewayApp> {
  const { config, logger } = options;
  const routes = new RouteTable();
  const adapter = new FastifyAdapter({
    bodyLimit: config.limits.max_body_bytes,
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
    return503OnClosing: true,
    // The shutdown drains in-flight requests first (drain-gate.ts); whatever connection is still open when the server
    // closes is closed with it. 'idle' left a server-side connection of a client that gave up on a request open, and
    // app.close() waited on it for ever.
    forceCloseConnections: true,
    trustProxy: false,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PATH_PARAM_CHARS },
    // Errors Fastify's router and Node's HTTP parser answer themselves, with bodies echoing the input: GatewayErrors.
    frameworkErrors: frameworkErrorHandler(logger),
    clientErrorHandler: clientErrorHandler(logger),
  });
  const fastify = adapter.getInstance();
  routes.attach(fastify);

  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(options), adapter, {
    logger: new NestPinoLogger(logger.child({ context: 'nest' })),
    abortOnError: false,
    bodyParser: false,
  });
  await app.register(fastifyCookie);
  registerJsonBodyParser(fastify);
  registerHttpHooks(fastify, logger, app.get(MetricsService));
  registerDrainGate(fastify);
  registerNulCheck(fastify);
  registerRouteGate(fastify, app.get(RouteGate));

  app.useGlobalFilters(new GatewayErrorFilter(logger, routes));
  app.useGlobalPipes(createValidationPipe());
  serveOpenApi(app);
  await serveDashboard(app, logger);
  try {
    await app.init();
  } catch (err) {
    // Close what did start (pools, Redis, workers) so a failed start leaves nothing running.
    await app.close().catch(() => undefined);
    throw err;
  }
  return { app, routes };
}
