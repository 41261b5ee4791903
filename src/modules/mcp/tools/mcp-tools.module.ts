import { Module } from '@nestjs/common';
import { GovernanceModule } from '../../governance/index.js';
import { McpClientsModule } from '../clients/mcp-clients.module.js';
import { McpLogsModule } from '../logs/mcp-logs.module.js';
import { McpToolExecutor } from '../mcp-contract.js';
import { McpCallerResolver } from './mcp-caller.js';
import { GatewayToolExecutor } from './mcp-tool-executor.js';
import { ToolExecuteController } from './tool-execute.controller.js';

/** Tool calls for virtual keys (McpToolExecutor) and /v1/mcp/tool/execute. */
@Module({
  imports: [GovernanceModule, McpClientsModule, McpLogsModule],
  controllers: [ToolExecuteController],
  providers: [GatewayToolExecutor, { provide: McpToolExecutor, useExisting: GatewayToolExecutor }, McpCallerResolver],
  exports: [McpToolExecutor, McpCallerResolver, McpClientsModule],
})
export class McpToolsModule {}
