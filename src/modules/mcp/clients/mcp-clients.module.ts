import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { GovernanceModule } from '../../governance/governance.module.js';
import { McpToolCatalog, McpToolTransport } from '../mcp-contract.js';
import { McpClientEntity } from './entities/mcp-client.entity.js';
import { McpClientsController } from './mcp-clients.controller.js';
import { McpClientsService } from './mcp-clients.service.js';
import { McpConnectionRegistry } from './mcp-connection.registry.js';

/** MCP client registrations, their live connections and tool lists (provides McpToolCatalog, McpToolTransport). */
@Module({
  imports: [GovernanceModule, TypeOrmModule.forFeature([McpClientEntity])],
  controllers: [McpClientsController],
  providers: [
    McpClientsService,
    McpConnectionRegistry,
    { provide: McpToolCatalog, useExisting: McpConnectionRegistry },
    { provide: McpToolTransport, useExisting: McpConnectionRegistry },
  ],
  exports: [McpToolCatalog, McpToolTransport],
})
export class McpClientsModule {}
