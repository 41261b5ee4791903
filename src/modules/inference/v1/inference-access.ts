import { Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { MANAGEMENT_KEY_PREFIX, readCredentials, VIRTUAL_KEY_PREFIX } from '../../../core/auth/credentials.util.js';
import { GatewayConfig } from '../../../core/config/gateway-config.js';
import { GatewayException } from '../../../core/errors/gateway.exception.js';

/**
 * Who may call the inference API. The route's guard has already verified any virtual key (`sk-gw-…`) presented; this
 * decides what a request without one gets: a provider key passed through (`inference.allow_direct_keys`), a 401
 * (`inference.require_virtual_key`, the default), or anonymous use of the stored keys. Management credentials are
 * never inference credentials.
 */
@Injectable()
export class InferenceAccess {
  constructor(private readonly config: GatewayConfig) {}

  /** The provider key to pass through, or undefined when the request uses the stored keys. */
  directKeyOf(request: FastifyRequest): string | undefined {
    if (request.principal?.virtualKey) return undefined;
    const presented = readCredentials(request);
    const credential = presented.bearer ?? presented.apiKeyHeader;
    const usable =
      credential !== undefined &&
      !credential.startsWith(VIRTUAL_KEY_PREFIX) &&
      !credential.startsWith(MANAGEMENT_KEY_PREFIX);
    if (usable && this.config.inference.allow_direct_keys) return credential;
    if (!this.config.inference.require_virtual_key) return undefined;
    if (credential === undefined && !presented.basic) {
      throw GatewayException.unauthorized(
        'missing_credentials',
        'A virtual key is required (Authorization: Bearer, x-api-key or x-gateway-vk)',
      );
    }
    throw GatewayException.unauthorized(
      'invalid_credentials',
      'Inference takes a virtual key; this credential is not one (management credentials are never accepted here)',
    );
  }
}
