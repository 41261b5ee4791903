import { Module, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { GatewayConfig } from '../../../core/config/gateway-config.js';
import { GovernanceModule } from '../../governance/index.js';
import { McpToolsModule } from '../tools/mcp-tools.module.js';
import { CallerRelays } from './caller-relay.js';
import { CallerRequests } from './caller-requests.js';
import { GatewayMcpServer } from './gateway-mcp-server.js';
import { GatewayMcpServerController } from './gateway-mcp-server.controller.js';
import { McpOffers } from './mcp-offers.js';
import { McpOriginPolicy, registerMcpOriginHook } from './mcp-origin-policy.js';
import { McpSessions } from './mcp-sessions.js';
import { McpStreams } from './mcp-streams.js';

/**
 * The gateway's own MCP server at `/mcp` and `/mcp/{client}`: sessions, the relay of what upstream servers offer
 * (tools through the executor, prompts, resources, completions, and what servers send during a call), the standalone
 * streams, and the Host/Origin check in front of them.
 */
@Module({
  imports: [GovernanceModule, McpToolsModule],
  controllers: [GatewayMcpServerController],
  providers: [GatewayMcpServer, McpSessions, CallerRequests, CallerRelays, McpOffers, McpStreams],
})
export class McpServerModule implements OnModuleInit {
  constructor(
    private readonly host: HttpAdapterHost,
    private readonly config: GatewayConfig,
  ) {}

  onModuleInit(): void {
    registerMcpOriginHook(this.host.httpAdapter.getInstance<FastifyInstance>(), new McpOriginPolicy(this.config));
  }
}
