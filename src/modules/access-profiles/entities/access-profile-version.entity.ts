import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { AccessProfileEntity } from './access-profile.entity.js';

/**
 * One stored version of a template: written with its create (version 1) and every change after it, in the change's
 * transaction. `snapshot` is the template as `GET` showed it right after that change; the rows go with the template.
 */
@Entity({ name: 'access_profile_versions' })
@Index('uq_access_profile_versions_access_profile_id_version', ['access_profile_id', 'version'], { unique: true })
export class AccessProfileVersionEntity {
  @PrimaryGeneratedColumn('increment', { type: 'integer', primaryKeyConstraintName: 'pk_access_profile_versions' })
  id: number;

  @Column({ name: 'access_profile_id', type: 'integer' })
  access_profile_id: number;

  @ManyToOne(() => AccessProfileEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'access_profile_id', foreignKeyConstraintName: 'fk_access_profile_versions_access_profile_id' })
  access_profile?: AccessProfileEntity;

  @Column({ type: 'integer' })
  version: number;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'text' })
  description: string;

  /** JSON text of the template's view (AccessProfileDto) after the change. */
  @Column({ type: 'text' })
  snapshot: string;

  /** Who made the change (the audit log's actor), or null when the request had no principal. */
  @Column({ name: 'changed_by', type: 'varchar', length: 255, nullable: true })
  changed_by: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  created_at: Date;
}
