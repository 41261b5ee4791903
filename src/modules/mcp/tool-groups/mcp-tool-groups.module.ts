import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { McpToolGroupToolEntity } from './entities/mcp-tool-group-tool.entity.js';
import { McpToolGroupEntity } from './entities/mcp-tool-group.entity.js';
import { McpToolGroupsController } from './mcp-tool-groups.controller.js';
import { McpToolGroupsService } from './mcp-tool-groups.service.js';
import { ToolGroupDependents } from './tool-group-dependents.js';

/** MCP tool groups (`/api/mcp/tool-groups`): named sets of tools that access profiles grant by reference. */
@Module({
  imports: [TypeOrmModule.forFeature([McpToolGroupEntity, McpToolGroupToolEntity])],
  controllers: [McpToolGroupsController],
  providers: [McpToolGroupsService, ToolGroupDependents],
  exports: [McpToolGroupsService, ToolGroupDependents],
})
export class McpToolGroupsModule {}
