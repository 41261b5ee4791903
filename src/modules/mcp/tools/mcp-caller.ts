import { Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { GatewayConfig } from '../../../core/config/gateway-config.js';
import { GatewayException } from '../../../core/errors/gateway.exception.js';
import type { McpCaller } from '../mcp-contract.js';
import { logMetadataOf } from '../../../core/http/log-metadata.js';

/** The caller and what its tool log rows carry as `metadata`. */
export interface ResolvedCaller extends McpCaller {
  metadata?: Record<string, string>;
}

/**
 * Who calls `/v1/mcp/tool/execute` and `/mcp`: the virtual key the route's guard verified (same credentials as
 * `/v1/chat/completions`: `Authorization: Bearer`, `x-api-key`, `x-gateway-vk`). Without one, 401 while
 * `inference.require_virtual_key` is on (the default); off, a key-less caller gets the tools of clients allowed on
 * all virtual keys.
 */
@Injectable()
export class McpCallerResolver {
  constructor(private readonly config: GatewayConfig) {}

  of(request: FastifyRequest): ResolvedCaller {
    const key = request.principal?.virtualKey;
    const metadata = logMetadataOf(request.headers, this.config.logs.metadata_header_prefix);
    if (key) return { virtualKey: { id: key.id, name: key.name, mcp_grants: key.mcp_grants }, metadata };
    if (this.config.inference.require_virtual_key) {
      throw GatewayException.unauthorized(
        'missing_credentials',
        'A virtual key is required (Authorization: Bearer, x-api-key or x-gateway-vk)',
      );
    }
    return { metadata };
  }
}
