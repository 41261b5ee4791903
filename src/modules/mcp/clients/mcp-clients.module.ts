import { Module } from '@nestjs/common';

/** MCP client registrations, their live connections and tool lists (provides McpToolCatalog, McpToolTransport). */
@Module({
  imports: [],
  controllers: [],
  providers: [],
  exports: [],
})
export class McpClientsModule {}
