import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { MoreThan, type Repository } from 'typeorm';
import { GatewayException } from '../../../core/errors/gateway.exception.js';
import { QueueService } from '../../../core/queue/queue.service.js';
import { taskInfoOf } from '../data-plane/a2a-wire.js';
import { AgentHistoryService } from '../history/agent-history.service.js';
import { AgentPushEventEntity } from './entities/agent-push-event.entity.js';
import type { AgentPushConfigEntity } from './entities/agent-push-config.entity.js';
import { PushConfigsService, sha256Hex } from './push-configs.service.js';

/** Same body for the same config within this window is a duplicate (acknowledged, not re-delivered). */
export const PUSH_DEDUPE_WINDOW_MS = 10 * 60_000;

export interface IngressResult {
  status: 'accepted' | 'duplicate';
  event_id: string;
}

/** Push callbacks from upstream agents: verify, dedupe, store, enqueue re-delivery. */
@Injectable()
export class PushIngressService {
  constructor(
    private readonly configs: PushConfigsService,
    @InjectRepository(AgentPushEventEntity) private readonly events: Repository<AgentPushEventEntity>,
    private readonly queue: QueueService,
    private readonly history: AgentHistoryService,
  ) {}

  /** `input.config` was verified before the body was read (`PushCallbackCheck`). */
  async accept(input: { config: AgentPushConfigEntity; rawBody: string; body: unknown }): Promise<IngressResult> {
    const started = performance.now();
    const { config } = input;
    if (typeof input.body !== 'object' || input.body === null || Array.isArray(input.body)) {
      throw GatewayException.validation('body', 'A push notification body must be a StreamResponse JSON object');
    }
    const info = taskInfoOf(input.body);
    if (info.task_id && config.task_id && info.task_id !== config.task_id) {
      throw new GatewayException(400, 'task_id_mismatch', 'The notification is about another task than its config', {
        param: 'task_id',
        reason: 'caller_invalid_request',
      });
    }
    if (info.task_id && !config.task_id) {
      // Configs sent with SendMessage are stored before the task exists; the first callback names it.
      await this.configs.bindTask(config.id, info.task_id);
    }
    const hash = sha256Hex(input.rawBody);
    const since = new Date(Date.now() - PUSH_DEDUPE_WINDOW_MS);
    const duplicate = await this.events.findOne({
      where: { push_config_id: config.id, body_hash: hash, created_at: MoreThan(since) },
    });
    if (duplicate) {
      this.history.record({
        agent_name: config.agent_name,
        operation: 'PushNotification',
        virtual_key_id: config.virtual_key_id,
        ...info,
        status: 'success',
        status_code: 200,
        latency_ms: performance.now() - started,
        request_payload: input.body,
        response_payload: { status: 'duplicate', event_id: duplicate.id },
        parent_id: duplicate.operation_id,
      });
      return { status: 'duplicate', event_id: duplicate.id };
    }
    const operationId = randomUUID();
    const event = this.events.create({
      id: randomUUID(),
      push_config_id: config.id,
      body_hash: hash,
      body: input.rawBody,
      task_id: info.task_id ?? config.task_id,
      operation_id: operationId,
      status: 'pending',
      attempts: 0,
      created_at: new Date(),
      delivered_at: null,
    });
    await this.events.insert(event);
    await this.queue.enqueue('agents.push-deliver', { push_event_id: event.id });
    this.history.record({
      id: operationId,
      agent_name: config.agent_name,
      operation: 'PushNotification',
      virtual_key_id: config.virtual_key_id,
      task_id: info.task_id ?? config.task_id,
      context_id: info.context_id,
      task_state: info.task_state,
      status: 'success',
      status_code: 200,
      latency_ms: performance.now() - started,
      request_payload: input.body,
      response_payload: { status: 'accepted', event_id: event.id },
    });
    return { status: 'accepted', event_id: event.id };
  }
}
