import { Module } from '@nestjs/common';
import { GovernanceModule } from '../../governance/governance.module.js';
import { McpClientsModule } from '../clients/mcp-clients.module.js';
import { McpLogsModule } from '../logs/mcp-logs.module.js';
import { McpToolExecutor } from '../mcp-contract.js';
import { GatewayToolExecutor } from './mcp-tool-executor.js';

/** Tool calls for virtual keys (McpToolExecutor), /v1/mcp/tool/execute and the gateway's own /mcp server. */
@Module({
  imports: [GovernanceModule, McpClientsModule, McpLogsModule],
  controllers: [],
  providers: [GatewayToolExecutor, { provide: McpToolExecutor, useExisting: GatewayToolExecutor }],
  exports: [McpToolExecutor, McpClientsModule],
})
export class McpToolsModule {}
