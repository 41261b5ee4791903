import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/**
 * A named set of MCP tools (`<client, tool>` pairs) that access profiles grant by reference (`mcp_tool_groups`).
 * Its tools are rows of `mcp_tool_group_tools`.
 */
@Entity({ name: 'mcp_tool_groups' })
export class McpToolGroupEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'pk_mcp_tool_groups' })
  id: string;

  @Index('uq_mcp_tool_groups_name', { unique: true })
  @Column({ type: 'varchar', length: 64 })
  name: string;

  @Column({ type: 'text', default: '' })
  description: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  created_at: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updated_at: Date;
}
