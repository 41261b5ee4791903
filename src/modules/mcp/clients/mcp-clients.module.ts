import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { GovernanceModule } from '../../governance/index.js';
import { McpToolCatalog, McpToolTransport } from '../mcp-contract.js';
import { McpClientStatusEntity } from './entities/mcp-client-status.entity.js';
import { McpClientEntity } from './entities/mcp-client.entity.js';
import { McpClientsController } from './mcp-clients.controller.js';
import { McpClientsService } from './mcp-clients.service.js';
import { McpConnectionRegistry } from './mcp-connection.registry.js';
import { McpClientStatusStore } from './stdio/mcp-client-status.store.js';
import { McpStdioJobs } from './stdio/stdio-jobs.js';

/** MCP client registrations, their live connections and tool lists (provides McpToolCatalog, McpToolTransport). */
@Module({
  imports: [GovernanceModule, TypeOrmModule.forFeature([McpClientEntity, McpClientStatusEntity])],
  controllers: [McpClientsController],
  providers: [
    McpClientsService,
    McpConnectionRegistry,
    McpClientStatusStore,
    McpStdioJobs,
    { provide: McpToolCatalog, useExisting: McpConnectionRegistry },
    { provide: McpToolTransport, useExisting: McpConnectionRegistry },
  ],
  exports: [McpToolCatalog, McpToolTransport],
})
export class McpClientsModule {}
