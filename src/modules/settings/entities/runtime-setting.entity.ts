import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * One runtime setting changed through `PUT /api/config` (docs/config.md): its value overrides the config file's until
 * it is reset (`null`), which deletes the row.
 */
@Entity({ name: 'runtime_settings' })
export class RuntimeSettingEntity {
  /** The dotted config key (`inference.require_virtual_key`). */
  @PrimaryColumn({ type: 'varchar', length: 255, primaryKeyConstraintName: 'pk_runtime_settings' })
  key: string;

  /** The value as JSON (a boolean, a number, a string or a list of strings). */
  @Column({ type: 'jsonb' })
  value: unknown;

  /** Who set it (the principal's name), null when unknown. */
  @Column({ type: 'varchar', length: 255, nullable: true })
  updated_by: string | null;

  @Column({ type: 'timestamptz' })
  updated_at: Date;
}
