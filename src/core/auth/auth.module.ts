import { Global, Module } from '@nestjs/common';
import { APP_GUARD, HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { SecretsModule } from '../secrets/secrets.module.js';
import { AdminCredentialsService } from './admin-credentials.service.js';
import { AuthPorts } from './auth-ports.js';
import { CredentialThrottle } from './credential-throttle.js';
import { DataPlaneAuthenticator } from './data-plane-authenticator.js';
import { JobTickets } from './job-tickets.js';
import { ManagementTickets } from './management-tickets.js';
import { GatewayAuthGuard } from './gateway-auth.guard.js';
import { RequestAuthenticator } from './request-authenticator.service.js';
import { RouteCredentialChecks } from './route-credential-checks.js';
import { RouteGate } from './route-gate.js';
import { RouteAccessRegistry } from './route-access.registry.js';
import { BasicAuthStrategy } from './strategies/basic-auth.strategy.js';
import { ManagementBearerStrategy } from './strategies/management-bearer.strategy.js';
import { SetupTokenStrategy } from './strategies/setup-token.strategy.js';

/**
 * Authentication and authorization for every route: the schemes' strategies, the global guard, and the registry of
 * route declarations. Governance plugs its identity provider and the session module its session verifier into
 * AuthPorts; until they do, keys, users and sessions are simply unknown (the core starts without them).
 */
@Global()
@Module({
  imports: [SecretsModule],
  providers: [
    AuthPorts,
    AdminCredentialsService,
    CredentialThrottle,
    BasicAuthStrategy,
    ManagementBearerStrategy,
    SetupTokenStrategy,
    DataPlaneAuthenticator,
    JobTickets,
    ManagementTickets,
    RequestAuthenticator,
    RouteGate,
    RouteCredentialChecks,
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
    AuthPorts,
    AdminCredentialsService,
    CredentialThrottle,
    DataPlaneAuthenticator,
    JobTickets,
    ManagementTickets,
    RequestAuthenticator,
    RouteGate,
    RouteCredentialChecks,
    SetupTokenStrategy,
    RouteAccessRegistry,
  ],
})
export class AuthModule {}
