import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { OutboundModule } from '../../core/outbound/outbound.module.js';
import { SecretsModule } from '../../core/secrets/secrets.module.js';
import { AgentCardFetcher } from './a2a/agent-card.fetcher.js';
import { AgentCardService } from './a2a/agent-card.service.js';
import { UpstreamAuthSealer } from './a2a/upstream-auth.sealer.js';
import { AgentUpstreamAuth } from './a2a/agent-upstream-auth.js';
import { AgentsController } from './agents.controller.js';
import { AgentsService } from './agents.service.js';
import { AgentEntity } from './entities/agent.entity.js';

/**
 * Agent Gateway management: registrations of upstream A2A v1 agents, their cards and upstream auth. Exports what
 * the data plane (card serving, proxy, push relay, history) builds on.
 */
@Module({
  imports: [TypeOrmModule.forFeature([AgentEntity]), OutboundModule, SecretsModule],
  controllers: [AgentsController],
  providers: [AgentsService, AgentCardFetcher, AgentCardService, AgentUpstreamAuth, UpstreamAuthSealer],
  exports: [AgentsService, AgentCardService, AgentUpstreamAuth, AgentCardFetcher],
})
export class AgentsModule {}
