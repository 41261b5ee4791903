import { Global, Module } from '@nestjs/common';
import { APP_GUARD, HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { SecretsModule } from '../secrets/secrets.module.js';
import { AdminCredentialsService } from './admin-credentials.service.js';
import { DataPlaneAuthenticator } from './data-plane-authenticator.js';
import { GatewayAuthGuard } from './gateway-auth.guard.js';
import { RequestAuthenticator } from './request-authenticator.service.js';
import { RouteAccessRegistry } from './route-access.registry.js';
import { BasicAuthStrategy } from './strategies/basic-auth.strategy.js';
import { ManagementBearerStrategy } from './strategies/management-bearer.strategy.js';
import { SetupTokenStrategy } from './strategies/setup-token.strategy.js';

/**
 * Authentication and authorization for every route: the schemes' strategies, the global guard, and the registry of
 * route declarations. Governance provides IDENTITY_PROVIDER and the session module SESSION_VERIFIER; both are
 * optional here so the core starts without them (keys, users and sessions are then simply unknown).
 */
@Global()
@Module({
  imports: [SecretsModule],
  providers: [
    AdminCredentialsService,
    BasicAuthStrategy,
    ManagementBearerStrategy,
    SetupTokenStrategy,
    DataPlaneAuthenticator,
    RequestAuthenticator,
    {
      // Attached while providers are built, before Nest registers its routes, so the registry sees every route.
      provide: RouteAccessRegistry,
      inject: [HttpAdapterHost],
      useFactory: (host: HttpAdapterHost) => {
        const registry = new RouteAccessRegistry();
        registry.attach(host.httpAdapter.getInstance<FastifyInstance>());
        return registry;
      },
    },
    { provide: APP_GUARD, useClass: GatewayAuthGuard },
  ],
  exports: [
    AdminCredentialsService,
    DataPlaneAuthenticator,
    RequestAuthenticator,
    SetupTokenStrategy,
    RouteAccessRegistry,
  ],
})
export class AuthModule {}
