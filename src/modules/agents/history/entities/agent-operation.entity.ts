import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

export const OPERATION_STATUSES = ['success', 'error'] as const;
export type OperationStatus = (typeof OPERATION_STATUSES)[number];

/**
 * One A2A operation that went through the gateway (a JSON-RPC method, its REST equivalent, a card fetch, a push
 * callback). A stream is one row with its events aggregated in `response_payload`; push delivery attempts are child
 * rows pointing at their callback with `parent_id`. Append-only: written in batches, purged after the retention.
 */
@Entity({ name: 'agent_operations' })
@Index('idx_agent_operations_created_at', ['created_at'])
@Index('idx_agent_operations_agent_created', ['agent_name', 'created_at'])
@Index('idx_agent_operations_task_id', ['task_id'])
@Index('idx_agent_operations_parent_id', ['parent_id'])
export class AgentOperationEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'pk_agent_operations' })
  id: string;

  @Column({ name: 'agent_name', type: 'varchar', length: 255 })
  agent_name: string;

  /** The v1 method name (`SendMessage`, …) for both bindings, or `GetAgentCard`, `PushNotification`, `PushDelivery`. */
  @Column({ type: 'varchar', length: 64 })
  operation: string;

  /** `JSONRPC` or `HTTP+JSON` for protocol calls; null for card fetches and push traffic. */
  @Column({ name: 'protocol_binding', type: 'varchar', length: 16, nullable: true })
  protocol_binding: string | null;

  @Column({ name: 'virtual_key_id', type: 'varchar', length: 255, nullable: true })
  virtual_key_id: string | null;

  @Column({ name: 'task_id', type: 'text', nullable: true })
  task_id: string | null;

  @Column({ name: 'context_id', type: 'text', nullable: true })
  context_id: string | null;

  @Column({ name: 'task_state', type: 'varchar', length: 64, nullable: true })
  task_state: string | null;

  @Column({ type: 'varchar', length: 16 })
  status: OperationStatus;

  @Column({ name: 'status_code', type: 'integer' })
  status_code: number;

  @Column({ name: 'latency_ms', type: 'integer' })
  latency_ms: number;

  // Payload columns are `json`, not `jsonb`: stored as written (validated, not converted), which makes the batched
  // history inserts about a third cheaper; nothing queries inside them.

  /** The GatewayError body (or the relayed upstream error) when status is `error`. */
  @Column({ type: 'json', nullable: true })
  error: Record<string, unknown> | null;

  @Column({ name: 'request_payload', type: 'json', nullable: true })
  request_payload: unknown;

  @Column({ name: 'response_payload', type: 'json', nullable: true })
  response_payload: unknown;

  @Column({ name: 'parent_id', type: 'uuid', nullable: true })
  parent_id: string | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  created_at: Date;
}
