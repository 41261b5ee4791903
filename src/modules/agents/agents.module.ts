import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { GovernanceModule } from '../governance/index.js';
import { AgentCardFetcher } from './a2a/agent-card.fetcher.js';
import { AgentCardService } from './a2a/agent-card.service.js';
import { AgentUpstreamAuth } from './a2a/agent-upstream-auth.js';
import { UpstreamAuthSealer } from './a2a/upstream-auth.sealer.js';
import { AgentsController } from './agents.controller.js';
import { AgentsService } from './agents.service.js';
import { AgentAccessService } from './data-plane/agent-access.service.js';
import { AgentsDataPlaneController } from './data-plane/data-plane.controller.js';
import { JsonRpcProxyService } from './data-plane/jsonrpc-proxy.service.js';
import { RestProxyService } from './data-plane/rest-proxy.service.js';
import { StreamEventRecorder } from './data-plane/stream-events.js';
import { AgentEntity } from './entities/agent.entity.js';
import { AgentHistoryController } from './history/agent-history.controller.js';
import { AgentHistoryService } from './history/agent-history.service.js';
import { AgentOperationEntity } from './history/entities/agent-operation.entity.js';
import { AgentPushConfigEntity } from './push/entities/agent-push-config.entity.js';
import { AgentPushEventEntity } from './push/entities/agent-push-event.entity.js';
import { PushConfigRemoval } from './push/push-config-removal.service.js';
import { PushConfigsController } from './push/push-configs.controller.js';
import { PushConfigsService } from './push/push-configs.service.js';
import { PushDeliveryService } from './push/push-delivery.service.js';
import { PushIngressController } from './push/push-ingress.controller.js';
import { PushCallbackCheck } from './push/push-callback-check.js';
import { PushIngressService } from './push/push-ingress.service.js';
import { PushRelayService } from './push/push-relay.service.js';

/**
 * The Agent Gateway, one module: registrations of upstream A2A v1 agents (cards, upstream auth), the data plane
 * (A2A proxy for both bindings, served cards), the push relay and the operation history. Governance is imported for
 * the virtual keys a registration grants; outbound calls, SSE relaying and upstream auth come from the core.
 */
@Module({
  imports: [
    GovernanceModule,
    TypeOrmModule.forFeature([AgentEntity, AgentOperationEntity, AgentPushConfigEntity, AgentPushEventEntity]),
  ],
  controllers: [
    AgentsController,
    AgentHistoryController,
    PushConfigsController,
    PushIngressController,
    AgentsDataPlaneController,
  ],
  providers: [
    AgentsService,
    AgentCardFetcher,
    AgentCardService,
    AgentUpstreamAuth,
    UpstreamAuthSealer,
    AgentAccessService,
    JsonRpcProxyService,
    RestProxyService,
    StreamEventRecorder,
    AgentHistoryService,
    PushConfigsService,
    PushConfigRemoval,
    PushRelayService,
    PushIngressService,
    PushCallbackCheck,
    PushDeliveryService,
  ],
})
export class AgentsModule {}
