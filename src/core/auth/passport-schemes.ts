import type { FastifyRequest } from 'fastify';
import passport from 'passport';
import { Strategy as CustomStrategy } from 'passport-custom';
import type { Principal } from './principal.js';

export type SchemeName = 'basic' | 'management-bearer' | 'setup-token';
type Verify = (request: FastifyRequest) => Promise<Principal | null>;

/**
 * The authentication schemes as passport strategies (passport-custom), on an Authenticator of this application's own
 * rather than passport's global one: several gateways in one process (tests, replicas) must not share strategies.
 * Stateless on Fastify: `session: false` and a callback, so passport never calls `req.logIn` or touches a session.
 */
function asError(err: unknown): Error {
  return err instanceof Error ? err : new Error(String(err));
}

export class PassportSchemes {
  private readonly authenticator = new passport.Authenticator();

  register(name: SchemeName, verify: Verify): void {
    this.authenticator.use(
      name,
      new CustomStrategy((request, done) => {
        verify(request as unknown as FastifyRequest).then(
          (principal) => done(null, principal ?? false),
          (err: unknown) => done(err),
        );
      }),
    );
  }

  /** The principal the scheme proved, null when it found nothing to check, or the scheme's GatewayException. */
  authenticate(name: SchemeName, request: FastifyRequest): Promise<Principal | null> {
    return new Promise((resolve, reject) => {
      const middleware = this.authenticator.authenticate(
        name,
        { session: false },
        (err: unknown, principal: Principal | false | undefined) =>
          err ? reject(asError(err)) : resolve(principal || null),
      ) as (req: unknown, res: unknown, next: (err?: unknown) => void) => void;
      middleware(request, {}, (err?: unknown) => (err ? reject(asError(err)) : resolve(null)));
    });
  }
}
