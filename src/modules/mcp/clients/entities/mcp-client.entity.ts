import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import type { StoredSecret } from '../../../../core/secrets/secret-value.js';

export const CONNECTION_TYPES = ['http', 'sse', 'stdio'] as const;
export type McpConnectionType = (typeof CONNECTION_TYPES)[number];

/** How a stdio client's server is spawned; `envs` values are sealed SecretValues, resolved at spawn time. */
export interface StoredStdioConfig {
  command: string;
  args: string[];
  envs: Record<string, StoredSecret>;
}

/** One virtual key's grant: the key, and optionally a narrower tool list than the client's. */
export interface StoredVkConfig {
  virtual_key_id: string;
  tools_to_execute?: string[];
}

/** An upstream MCP server the gateway connects to (one kept connection per registration on every replica). */
@Entity({ name: 'mcp_clients' })
export class McpClientEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'pk_mcp_clients' })
  id: string;

  @Index('uq_mcp_clients_name', { unique: true })
  @Column({ type: 'varchar', length: 64 })
  name: string;

  @Column({ name: 'connection_type', type: 'varchar', length: 16 })
  connection_type: McpConnectionType;

  @Column({ name: 'connection_string', type: 'text', nullable: true })
  connection_string: string | null;

  @Column({ name: 'stdio_config', type: 'jsonb', nullable: true })
  stdio_config: StoredStdioConfig | null;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  headers: Record<string, StoredSecret>;

  @Column({ name: 'tools_to_execute', type: 'jsonb', default: () => '\'["*"]\'' })
  tools_to_execute: string[];

  @Column({ name: 'tools_to_auto_execute', type: 'jsonb', default: () => "'[]'" })
  tools_to_auto_execute: string[];

  /** Seconds. */
  @Column({ name: 'tool_execution_timeout', type: 'integer', default: 30 })
  tool_execution_timeout: number;

  @Column({ name: 'tool_pricing', type: 'jsonb', default: () => "'{}'" })
  tool_pricing: Record<string, number>;

  @Column({ name: 'allow_on_all_virtual_keys', type: 'boolean', default: false })
  allow_on_all_virtual_keys: boolean;

  @Column({ type: 'boolean', default: false })
  disabled: boolean;

  @Column({ name: 'vk_configs', type: 'jsonb', default: () => "'[]'" })
  vk_configs: StoredVkConfig[];

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  created_at: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updated_at: Date;
}
