import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import type { StoredUpstreamAuth } from '../../../core/outbound/upstream-auth.types.js';

export {
  AUTH_TYPES,
  type StoredUpstreamAuth,
  type StoredUpstreamOAuth,
  type StoredUpstreamTls,
  type UpstreamAuthType,
} from '../../../core/outbound/upstream-auth.types.js';

/** An upstream A2A v1 agent registration. The name is the key: it is also the data-plane path segment. */
@Entity({ name: 'agents' })
export class AgentEntity {
  @PrimaryColumn({ type: 'varchar', length: 255, primaryKeyConstraintName: 'pk_agents' })
  name: string;

  @Column({ name: 'agent_card_url', type: 'text' })
  agent_card_url: string;

  @Column({ type: 'boolean', default: true })
  enabled: boolean;

  @Column({ name: 'allow_by_default', type: 'boolean', default: false })
  allow_by_default: boolean;

  @Column({ name: 'forward_accepted_credential', type: 'boolean', default: false })
  forward_accepted_credential: boolean;

  @Column({ name: 'forward_accepted_credential_overrides_auth', type: 'boolean', default: false })
  forward_accepted_credential_overrides_auth: boolean;

  @Column({ name: 'discovery_auth', type: 'jsonb', nullable: true })
  discovery_auth: StoredUpstreamAuth | null;

  @Column({ name: 'runtime_auth', type: 'jsonb', nullable: true })
  runtime_auth: StoredUpstreamAuth | null;

  /** A2A extension URIs forwarded upstream (each declared by the card at registration). */
  @Column({ name: 'extension_uris', type: 'jsonb', default: () => "'[]'" })
  extension_uris: string[];

  /** Virtual keys granted access (governance owns the keys; IDs are checked to exist on write). */
  @Column({ name: 'virtual_key_ids', type: 'jsonb', default: () => "'[]'" })
  virtual_key_ids: string[];

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  created_at: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updated_at: Date;
}
