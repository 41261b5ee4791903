import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AgentsModule } from './agents.module.js';
import { AgentAccessService } from './data-plane/agent-access.service.js';
import { AgentsDataPlaneController } from './data-plane/data-plane.controller.js';
import { JsonRpcProxyService } from './data-plane/jsonrpc-proxy.service.js';
import { RestProxyService } from './data-plane/rest-proxy.service.js';
import { SseStreamTracker } from '../../core/http/sse-relay.js';
import { StreamEventRecorder } from './data-plane/stream-events.js';
import { AgentHistoryController } from './history/agent-history.controller.js';
import { AgentHistoryService } from './history/agent-history.service.js';
import { AgentOperationEntity } from './history/entities/agent-operation.entity.js';
import { AgentPushConfigEntity } from './push/entities/agent-push-config.entity.js';
import { AgentPushEventEntity } from './push/entities/agent-push-event.entity.js';
import { PushConfigsController } from './push/push-configs.controller.js';
import { PushConfigRemoval } from './push/push-config-removal.service.js';
import { PushConfigsService } from './push/push-configs.service.js';
import { PushDeliveryService } from './push/push-delivery.service.js';
import { PushIngressController } from './push/push-ingress.controller.js';
import { PushIngressService } from './push/push-ingress.service.js';
import { PushRelayService } from './push/push-relay.service.js';

/**
 * The Agent Gateway data plane (A2A proxy for both bindings, served cards), the push relay and the operation
 * history. Registration, cards and upstream auth come from AgentsModule.
 */
@Module({
  imports: [
    AgentsModule,
    TypeOrmModule.forFeature([AgentOperationEntity, AgentPushConfigEntity, AgentPushEventEntity]),
  ],
  controllers: [AgentHistoryController, PushConfigsController, PushIngressController, AgentsDataPlaneController],
  providers: [
    AgentAccessService,
    JsonRpcProxyService,
    RestProxyService,
    SseStreamTracker,
    StreamEventRecorder,
    AgentHistoryService,
    PushConfigsService,
    PushConfigRemoval,
    PushRelayService,
    PushIngressService,
    PushDeliveryService,
  ],
  exports: [AgentHistoryService],
})
export class AgentsGatewayModule {}
