import {
  Check,
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
  UpdateDateColumn,
} from 'typeorm';
import { CustomerEntity } from '../../objects/entities/customer.entity.js';
import { TeamEntity } from '../../objects/entities/team.entity.js';

/**
 * A virtual key: the identity data-plane callers present. Its secret values live in `virtual_key_credentials`
 * (several at once during a rotation grace period); provider configs, budgets and rate limits hang off this row in
 * their own tables. It belongs to a team or a customer, never both (check constraint).
 */
@Entity({ name: 'virtual_keys' })
@Index('uq_virtual_keys_name', ['name'], { unique: true })
@Index('ix_virtual_keys_team_id', ['team_id'])
@Index('ix_virtual_keys_customer_id', ['customer_id'])
@Index('ix_virtual_keys_access_profile_copy_id', ['access_profile_copy_id'])
@Check('ck_virtual_keys_team_xor_customer', 'team_id IS NULL OR customer_id IS NULL')
export class VirtualKeyEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'pk_virtual_keys' })
  id: string;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'text', default: '' })
  description: string;

  @Column({ name: 'is_active', type: 'boolean', default: true })
  is_active: boolean;

  @Column({ name: 'expires_at', type: 'timestamptz', nullable: true })
  expires_at: Date | null;

  /** Deleting the team or customer detaches its keys. */
  @Column({ name: 'team_id', type: 'uuid', nullable: true })
  team_id: string | null;

  @ManyToOne(() => TeamEntity, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'team_id', foreignKeyConstraintName: 'fk_virtual_keys_team_id' })
  team?: TeamEntity;

  @Column({ name: 'customer_id', type: 'uuid', nullable: true })
  customer_id: string | null;

  @ManyToOne(() => CustomerEntity, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'customer_id', foreignKeyConstraintName: 'fk_virtual_keys_customer_id' })
  customer?: CustomerEntity;

  /**
   * MCP grants (`VirtualKeyMcpGrant[]`), enforced by the MCP catalog. Typed loosely: rows written while the column was
   * a free-form placeholder may hold other shapes (storedMcpGrants ignores them).
   */
  @Column({ name: 'mcp_configs', type: 'jsonb', default: () => "'[]'" })
  mcp_configs: unknown[];

  /**
   * Set on a key an access profile manages (the user's copy it was built from): its policy is the copy's, edited only
   * through the profile (name and description stay editable). Deleting the copy deletes the key.
   */
  @Column({ name: 'access_profile_copy_id', type: 'integer', nullable: true })
  access_profile_copy_id: number | null;

  // The access-profiles module sits above governance: its entity is named, not imported (same column and key).
  @ManyToOne('AccessProfileCopyEntity', { onDelete: 'CASCADE' })
  @JoinColumn({
    name: 'access_profile_copy_id',
    foreignKeyConstraintName: 'fk_virtual_keys_access_profile_copy_id',
  })
  access_profile_copy?: object;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  created_at: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updated_at: Date;
}
