import { Injectable } from '@nestjs/common';
import type { IdentityProvider } from './identity-provider.js';
import type { SessionVerifier } from './session-verifier.js';

/**
 * Where the domain modules plug into authentication: Governance provides the identity provider (keys, users) and
 * Session the session verifier, each from its own module at start-up. The core never imports a domain module, and the
 * domain modules need not be global for the guard to reach them. Until one is plugged in, its credentials are unknown.
 */
@Injectable()
export class AuthPorts {
  identity: IdentityProvider | null = null;
  sessions: SessionVerifier | null = null;

  provideIdentity(identity: IdentityProvider): void {
    this.identity = identity;
  }

  provideSessions(sessions: SessionVerifier): void {
    this.sessions = sessions;
  }
}
