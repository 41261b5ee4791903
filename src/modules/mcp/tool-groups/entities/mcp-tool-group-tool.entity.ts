import { Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { McpClientEntity } from '../../clients/entities/mcp-client.entity.js';
import { McpToolGroupEntity } from './mcp-tool-group.entity.js';

/**
 * One tool of a group. Deleting the group deletes its rows; deleting the MCP client deletes its tools from every group
 * (both by foreign key cascade, in the deleting statement).
 */
@Entity({ name: 'mcp_tool_group_tools' })
@Index('ix_mcp_tool_group_tools_mcp_client_id', ['mcp_client_id'])
export class McpToolGroupToolEntity {
  @PrimaryColumn('uuid', { name: 'group_id', primaryKeyConstraintName: 'pk_mcp_tool_group_tools' })
  group_id: string;

  @PrimaryColumn('uuid', { name: 'mcp_client_id', primaryKeyConstraintName: 'pk_mcp_tool_group_tools' })
  mcp_client_id: string;

  @PrimaryColumn({
    name: 'tool_name',
    type: 'varchar',
    length: 128,
    primaryKeyConstraintName: 'pk_mcp_tool_group_tools',
  })
  tool_name: string;

  @ManyToOne(() => McpToolGroupEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'group_id', foreignKeyConstraintName: 'fk_mcp_tool_group_tools_group_id' })
  group?: McpToolGroupEntity;

  @ManyToOne(() => McpClientEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'mcp_client_id', foreignKeyConstraintName: 'fk_mcp_tool_group_tools_mcp_client_id' })
  client?: McpClientEntity;
}
