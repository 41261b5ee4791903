import { Module } from '@nestjs/common';
import { GovernanceModule } from '../../governance/governance.module.js';
import { McpClientsModule } from '../clients/mcp-clients.module.js';
import { McpLogsModule } from '../logs/mcp-logs.module.js';
import { McpToolExecutor } from '../mcp-contract.js';
import { GatewayMcpServer } from './gateway-mcp-server.js';
import { GatewayMcpServerController } from './gateway-mcp-server.controller.js';
import { McpCallerResolver } from './mcp-caller.js';
import { GatewayToolExecutor } from './mcp-tool-executor.js';
import { ToolExecuteController } from './tool-execute.controller.js';
import { ToolListStreams } from './tool-list-streams.js';

/** Tool calls for virtual keys (McpToolExecutor), /v1/mcp/tool/execute and the gateway's own /mcp server. */
@Module({
  imports: [GovernanceModule, McpClientsModule, McpLogsModule],
  controllers: [ToolExecuteController, GatewayMcpServerController],
  providers: [
    GatewayToolExecutor,
    { provide: McpToolExecutor, useExisting: GatewayToolExecutor },
    McpCallerResolver,
    GatewayMcpServer,
    ToolListStreams,
  ],
  exports: [McpToolExecutor, McpClientsModule],
})
export class McpToolsModule {}
