import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { PluginJson } from '../registry/gateway-plugin.js';

/**
 * A plugin's settings as `PUT /api/plugins/{name}` left them (the full settings, over the file's and the plugin's
 * defaults). A plugin without a row runs with those.
 */
@Entity({ name: 'plugins' })
export class PluginSettingEntity {
  @PrimaryColumn({ type: 'varchar', length: 64, primaryKeyConstraintName: 'pk_plugins' })
  name: string;

  @Column({ type: 'boolean' })
  enabled: boolean;

  @Column({ type: 'integer' })
  order: number;

  @Column({ type: 'jsonb', default: {} })
  config: PluginJson;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updated_at: Date;
}
