import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import type { StoredSecret } from '../../../core/secrets/secret-value.js';

/** An endpoint the gateway POSTs signed events to (docs/webhooks.md); async jobs name it by `name`. */
@Entity({ name: 'webhooks' })
export class WebhookEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'pk_webhooks' })
  id: string;

  @Index('uq_webhooks_name', { unique: true })
  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'text' })
  url: string;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  @Column({ type: 'boolean', default: true })
  enabled: boolean;

  /** Extra headers sent with every delivery: name to sealed SecretValue. */
  @Column({ type: 'jsonb', default: () => "'{}'" })
  headers: Record<string, StoredSecret>;

  /** The HMAC signing secret, AES-256-GCM sealed (SecretsService.encrypt); shown in clear only on create and rotate. */
  @Column({ name: 'secret_ciphertext', type: 'text' })
  secret_ciphertext: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  created_at: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updated_at: Date;
}
