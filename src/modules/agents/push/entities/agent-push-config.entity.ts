import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A client's push notification config, relayed through the gateway. The upstream agent only ever sees the gateway's
 * callback URL (`/agents/a2a/{name}/push?config=<id>`) and a token minted for this row (stored as a SHA-256 hash).
 * The client's URL, token and authentication are kept encrypted (SecretsService.encrypt).
 */
@Entity({ name: 'agent_push_configs' })
@Index('uq_agent_push_configs_agent_task_config', ['agent_name', 'task_id', 'config_id'], { unique: true })
@Index('idx_agent_push_configs_created_at', ['created_at'])
export class AgentPushConfigEntity {
  /** Internal id, the `config` query parameter of the callback URL. */
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'pk_agent_push_configs' })
  id: string;

  @Column({ name: 'agent_name', type: 'varchar', length: 255 })
  agent_name: string;

  /** Null until the task id is known (a config sent with SendMessage before the task exists). */
  @Column({ name: 'task_id', type: 'text', nullable: true })
  task_id: string | null;

  /** The config id the client and the upstream know (the client's own id, else the internal id). */
  @Column({ name: 'config_id', type: 'varchar', length: 255 })
  config_id: string;

  /** Ciphertext of the client's webhook URL. */
  @Column({ name: 'client_url', type: 'text' })
  client_url: string;

  /** Ciphertext of the client's token, when it set one. */
  @Column({ name: 'client_token', type: 'text', nullable: true })
  client_token: string | null;

  /** Ciphertext of the client's `authentication` JSON `{ scheme, credentials }`, when it set one. */
  @Column({ name: 'client_authentication', type: 'text', nullable: true })
  client_authentication: string | null;

  @Column({ name: 'virtual_key_id', type: 'varchar', length: 255, nullable: true })
  virtual_key_id: string | null;

  /** SHA-256 (hex) of the token the gateway minted for the upstream's callbacks. */
  @Column({ name: 'gateway_token_hash', type: 'varchar', length: 64 })
  gateway_token_hash: string;

  @Column({ name: 'created_at', type: 'timestamptz' })
  created_at: Date;
}
