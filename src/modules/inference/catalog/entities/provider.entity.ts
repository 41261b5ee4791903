import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import type { ProviderId } from '../../providers/provider-ids.js';
import type { StoredSecret } from '../../../../core/secrets/secret-value.js';
import type { StoredNetworkConfig } from '../catalog-records.js';

/** A provider configured through the API. Its id is the key: one configuration per provider id. */
@Entity({ name: 'providers' })
export class ProviderEntity {
  @PrimaryColumn({ type: 'varchar', length: 64, primaryKeyConstraintName: 'pk_providers' })
  provider: ProviderId;

  /** Override of the adapter's default base URL, without a trailing slash. */
  @Column({ name: 'base_url', type: 'text', nullable: true })
  base_url: string | null;

  /** Header name → sealed SecretValue, added to every upstream call. */
  @Column({ name: 'extra_headers', type: 'jsonb', default: () => "'{}'" })
  extra_headers: Record<string, StoredSecret>;

  /** The timeout and retry fields set for this provider, durations as written (`30s`); the rest follow the defaults. */
  @Column({ name: 'network_config', type: 'jsonb' })
  network_config: Partial<StoredNetworkConfig>;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  created_at: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updated_at: Date;
}
