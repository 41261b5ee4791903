import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { McpToolLogWriter } from '../mcp-contract.js';
import { McpToolLogEntity } from './entities/mcp-tool-log.entity.js';
import { McpLogsController } from './mcp-logs.controller.js';
import { McpToolLogQuery } from './mcp-tool-log.query.js';
import { McpToolLogStore } from './mcp-tool-log.store.js';
import { McpToolLogSweeper } from './mcp-tool-log.sweeper.js';

/** MCP tool logs: the writer (provides McpToolLogWriter) and /api/mcp-logs. */
@Module({
  imports: [TypeOrmModule.forFeature([McpToolLogEntity])],
  controllers: [McpLogsController],
  providers: [
    McpToolLogStore,
    McpToolLogQuery,
    McpToolLogSweeper,
    { provide: McpToolLogWriter, useExisting: McpToolLogStore },
  ],
  exports: [McpToolLogWriter],
})
export class McpLogsModule {}
