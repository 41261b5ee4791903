import { Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { GatewayConfig } from '../../../core/config/gateway-config.js';
import { GatewayException } from '../../../core/errors/gateway.exception.js';
import type { McpCaller } from '../mcp-contract.js';

const MAX_METADATA_ENTRIES = 32;
const MAX_METADATA_VALUE_CHARS = 1024;

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
  private readonly metadataPrefix: string;

  constructor(private readonly config: GatewayConfig) {
    this.metadataPrefix = config.logs.metadata_header_prefix;
  }

  of(request: FastifyRequest): ResolvedCaller {
    const key = request.principal?.virtualKey;
    const metadata = this.metadataOf(request);
    if (key) return { virtualKey: { id: key.id, name: key.name }, metadata };
    if (this.config.inference.require_virtual_key) {
      throw GatewayException.unauthorized(
        'missing_credentials',
        'A virtual key is required (Authorization: Bearer, x-api-key or x-gateway-vk)',
      );
    }
    return { metadata };
  }

  /**
   * As for request logs: headers under `logs.metadata_header_prefix` (prefix removed) and the caller's own
   * `x-request-id`; undefined when there are none.
   */
  private metadataOf(request: FastifyRequest): Record<string, string> | undefined {
    let out: Record<string, string> | undefined;
    let count = 0;
    for (const name in request.headers) {
      const own = name === 'x-request-id';
      if (!own && !name.startsWith(this.metadataPrefix)) continue;
      const raw = request.headers[name];
      const value = Array.isArray(raw) ? raw.join(', ') : raw;
      if (value === undefined) continue;
      out ??= {};
      out[own ? 'x-request-id' : name.slice(this.metadataPrefix.length)] = value.slice(0, MAX_METADATA_VALUE_CHARS);
      if (++count >= MAX_METADATA_ENTRIES) break;
    }
    return out;
  }
}
