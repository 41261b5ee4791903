import { Module } from '@nestjs/common';

/** Tool calls for virtual keys (McpToolExecutor), /v1/mcp/tool/execute and the gateway's own /mcp server. */
@Module({
  imports: [],
  controllers: [],
  providers: [],
  exports: [],
})
export class McpToolsModule {}
