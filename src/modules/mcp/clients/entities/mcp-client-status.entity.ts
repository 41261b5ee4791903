import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import type { McpToolDefinition } from '../../mcp-contract.js';
import { McpClientEntity } from './mcp-client.entity.js';

/**
 * What a process running a stdio client's child (role `worker` or `all`) last saw of it: `api` replicas spawn no
 * child and read the state and tool list of their stdio clients from here. One row per client, the latest report.
 */
@Entity({ name: 'mcp_client_status' })
export class McpClientStatusEntity {
  @PrimaryColumn('uuid', { name: 'client_id', primaryKeyConstraintName: 'pk_mcp_client_status' })
  client_id: string;

  @ManyToOne(() => McpClientEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'client_id', foreignKeyConstraintName: 'fk_mcp_client_status_client' })
  client?: McpClientEntity;

  /** `connected`, `disconnected` or `error`. */
  @Column({ type: 'varchar', length: 16 })
  state: string;

  @Column({ type: 'jsonb', default: () => "'[]'" })
  tools: McpToolDefinition[];

  @Column({ name: 'last_error', type: 'text', nullable: true })
  last_error: string | null;

  @Column({ name: 'reported_at', type: 'timestamptz' })
  reported_at: Date;
}
