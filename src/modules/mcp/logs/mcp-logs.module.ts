import { Module } from '@nestjs/common';

/** MCP tool logs: the writer (provides McpToolLogWriter) and /api/mcp-logs. */
@Module({
  imports: [],
  controllers: [],
  providers: [],
  exports: [],
})
export class McpLogsModule {}
