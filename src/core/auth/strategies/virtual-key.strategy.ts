import { Inject, Injectable, Optional } from '@nestjs/common';
import { GatewayException } from '../../errors/gateway.exception.js';
import { VIRTUAL_KEY_PREFIX, virtualKeyValue, type PresentedCredentials } from '../credentials.util.js';
import { IDENTITY_PROVIDER, type IdentityProvider } from '../identity-provider.js';
import type { Principal } from '../principal.js';

/**
 * Virtual keys on data-plane routes (and the quota route): `x-gateway-vk`, `x-api-key` or `Authorization: Bearer`.
 * Basic credentials are never validated here.
 */
@Injectable()
export class VirtualKeyStrategy {
  constructor(@Optional() @Inject(IDENTITY_PROVIDER) private readonly identity: IdentityProvider | null) {}

  /** The principal, or null when no key is presented and the route allows that. */
  async validate(credentials: PresentedCredentials, optional: boolean): Promise<Principal | null> {
    // Where the key is optional, only `sk-gw-` values are ours: anything else (a provider key passed through) is
    // left to the handler.
    const value = optional
      ? [credentials.virtualKeyHeader, credentials.apiKeyHeader, credentials.bearer].find((v) =>
          v?.startsWith(VIRTUAL_KEY_PREFIX),
        )
      : virtualKeyValue(credentials);
    if (!value) {
      if (optional) return null;
      throw GatewayException.unauthorized(
        'missing_credentials',
        'A virtual key is required (Authorization: Bearer, x-api-key or x-gateway-vk)',
      );
    }
    if (!this.identity) throw GatewayException.unauthorized('invalid_credentials', 'Unknown virtual key');
    const virtualKey = await this.identity.verifyVirtualKey(value);
    return {
      kind: 'virtual_key',
      authMethod: 'virtual_key',
      id: virtualKey.id,
      name: virtualKey.name,
      permissions: new Set<string>(),
      virtualKey,
    };
  }
}
