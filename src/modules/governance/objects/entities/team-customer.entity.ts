import { CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { CustomerEntity } from './customer.entity.js';
import { TeamEntity } from './team.entity.js';

/** A team linked to a customer (enterprise): the team's keys are charged to every linked customer. */
@Entity({ name: 'team_customers' })
@Index('ix_team_customers_customer_id', ['customer_id'])
export class TeamCustomerEntity {
  @PrimaryColumn({ name: 'team_id', type: 'uuid', primaryKeyConstraintName: 'pk_team_customers' })
  team_id: string;

  @PrimaryColumn({ name: 'customer_id', type: 'uuid', primaryKeyConstraintName: 'pk_team_customers' })
  customer_id: string;

  @ManyToOne(() => TeamEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'team_id', foreignKeyConstraintName: 'fk_team_customers_team_id' })
  team?: TeamEntity;

  @ManyToOne(() => CustomerEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'customer_id', foreignKeyConstraintName: 'fk_team_customers_customer_id' })
  customer?: CustomerEntity;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  created_at: Date;
}
