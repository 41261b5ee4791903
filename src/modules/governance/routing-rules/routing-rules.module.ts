import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { GovernanceModule } from '../governance.module.js';
import { RoutingRuleEntity } from './entities/routing-rule.entity.js';
import { RoutingRuleEngine } from './routing-rule-engine.js';
import { RoutingRulesController } from './routing-rules.controller.js';
import { RoutingRulesService } from './routing-rules.service.js';

/**
 * Routing rules: stored and validated here (`/api/governance/routing-rules`), evaluated on the request path by the
 * exported RoutingRuleEngine (the inference router asks it before routing). Imports the governance module for the
 * governed levels (`GovernancePolicies`) behind `budget_used`, `tokens_used` and `request`, when it provides them.
 */
@Module({
  imports: [GovernanceModule, TypeOrmModule.forFeature([RoutingRuleEntity])],
  controllers: [RoutingRulesController],
  providers: [RoutingRuleEngine, RoutingRulesService],
  exports: [RoutingRuleEngine],
})
export class RoutingRulesModule {}
