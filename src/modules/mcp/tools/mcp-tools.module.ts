import { Module } from '@nestjs/common';

/** Tool calls for virtual keys (McpToolExecutor), /v1/mcp/tool/execute and the gateway's own /mcp server. */
@Module({
  imports: [],
  controllers: [],
  // Wired once the clients and logs parts provide their halves of the contract:
  // providers: [GatewayToolExecutor, { provide: McpToolExecutor, useExisting: GatewayToolExecutor }],
  providers: [],
  exports: [],
})
export class McpToolsModule {}
