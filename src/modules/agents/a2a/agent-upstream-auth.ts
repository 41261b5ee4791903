import { Injectable } from '@nestjs/common';
import type { AgentTlsSettings } from '../../../core/outbound/outbound-http.service.js';
import { UpstreamAuthService } from '../../../core/outbound/upstream-auth.service.js';
import type { StoredUpstreamAuth } from '../../../core/outbound/upstream-auth.types.js';
import type { AgentEntity } from '../entities/agent.entity.js';

/** Card fetches use the discovery auth; protocol calls use the runtime auth. */
export type AuthPhase = 'discovery' | 'runtime';

export function authOf(agent: Pick<AgentEntity, 'discovery_auth' | 'runtime_auth'>, phase: AuthPhase) {
  return phase === 'discovery' ? agent.discovery_auth : agent.runtime_auth;
}

/** An agent's upstream auth per phase, through the core's upstream auth (OAuth tokens cached per agent and phase). */
@Injectable()
export class AgentUpstreamAuth {
  constructor(private readonly upstream: UpstreamAuthService) {}

  headersFor(agent: Pick<AgentEntity, 'name' | 'discovery_auth' | 'runtime_auth'>, phase: AuthPhase) {
    return this.upstream.headersForAuth(authOf(agent, phase), `${agent.name}:${phase}`);
  }

  tlsFor(
    agent: Pick<AgentEntity, 'discovery_auth' | 'runtime_auth'>,
    phase: AuthPhase,
  ): Promise<AgentTlsSettings | null> {
    return this.upstream.tlsForAuth(authOf(agent, phase));
  }

  /** For an auth block not (yet) stored (registration, inspect). */
  headersForAuth(auth: StoredUpstreamAuth | null | undefined, cacheKey: string) {
    return this.upstream.headersForAuth(auth, cacheKey);
  }

  /** Drops the agent's cached tokens (on update and delete). */
  forget(agentName: string): void {
    this.upstream.forget(agentName);
  }
}
