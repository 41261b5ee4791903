import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { RouteCredentialChecks } from '../../../core/auth/route-credential-checks.js';
import { GatewayException } from '../../../core/errors/gateway.exception.js';
import type { AgentPushConfigEntity } from './entities/agent-push-config.entity.js';
import { PushConfigsService } from './push-configs.service.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The push config whose token an upstream's callback presented (set by `PushCallbackCheck`). */
    pushConfig?: AgentPushConfigEntity;
  }
}

/** The `@RouteCredential` check of `POST /agents/a2a/{name}/push`. */
export const PUSH_CALLBACK_CHECK = 'a2a-push-callback';

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The token the upstream presents: `Authorization: Bearer`, else the legacy token headers (a2a-js, a2a-go). */
function presentedToken(request: FastifyRequest): string | undefined {
  const auth = header(request, 'authorization');
  const bearer = auth && /^Bearer\s+(.+)$/i.exec(auth.trim());
  if (bearer?.[1]) return bearer[1].trim();
  return header(request, 'x-a2a-notification-token') ?? header(request, 'a2a-notification-token') ?? undefined;
}

/**
 * Verifies an upstream agent's push callback before its body is read: the config named by `?config=` belongs to the
 * route's agent and the presented token is the one minted for it. The config is left on the request.
 */
@Injectable()
export class PushCallbackCheck implements OnModuleInit {
  constructor(
    private readonly configs: PushConfigsService,
    private readonly checks: RouteCredentialChecks,
  ) {}

  onModuleInit(): void {
    this.checks.register(PUSH_CALLBACK_CHECK, (request) => this.check(request));
  }

  private async check(request: FastifyRequest): Promise<void> {
    const token = presentedToken(request);
    if (!token) {
      throw GatewayException.unauthorized(
        'missing_credentials',
        'Push callbacks need the token the gateway minted (Authorization: Bearer, X-A2A-Notification-Token or A2A-Notification-Token)',
      );
    }
    const configId = (request.query as Record<string, unknown> | undefined)?.config;
    const agentName = (request.params as Record<string, string> | undefined)?.name;
    const config = typeof configId === 'string' ? await this.configs.findById(configId) : null;
    if (!config || config.agent_name !== agentName || !this.configs.tokenMatches(config, token)) {
      // One answer for unknown configs and wrong tokens: a caller learns nothing about which configs exist.
      throw GatewayException.unauthorized('invalid_credentials', 'Unknown push config or wrong notification token');
    }
    request.pushConfig = config;
  }
}
