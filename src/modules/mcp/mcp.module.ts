import { Module } from '@nestjs/common';
import { McpClientsModule } from './clients/mcp-clients.module.js';
import { McpLogsModule } from './logs/mcp-logs.module.js';
import { McpServerModule } from './server/mcp-server.module.js';
import { McpToolGroupsModule } from './tool-groups/mcp-tool-groups.module.js';
import { McpToolsModule } from './tools/mcp-tools.module.js';

/**
 * The MCP gateway (issue 13): clients, tool groups, tool logs, tool calls and the gateway's own MCP server; the seams between them
 * are in `mcp-contract.ts`.
 */
@Module({
  imports: [McpClientsModule, McpLogsModule, McpToolsModule, McpServerModule, McpToolGroupsModule],
  exports: [McpToolsModule, McpToolGroupsModule],
})
export class McpModule {}
