import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Logger } from 'pino';
import { LessThan, type Repository } from 'typeorm';
import { parseDuration } from '../../../core/config/duration.js';
import { GatewayConfig } from '../../../core/config/gateway-config.js';
import { toErrorResponse } from '../../../core/errors/error-response.js';
import { LOGGER } from '../../../core/logging/logging.module.js';
import { ExpiredRowsRegistry } from '../../../core/maintenance/expired-rows.service.js';
import { OutboundHttpService, readBodyCapped } from '../../../core/outbound/outbound-http.service.js';
import { type JobPayloads } from '../../../core/queue/job-catalogue.js';
import { AGENT_JOBS, AGENT_JOB_SETTINGS } from '../agents.jobs.js';
import { JobHandler, type JobContext } from '../../../core/queue/job-handler.decorator.js';
import { JobRecoveryRegistry } from '../../../core/queue/job-recovery.registry.js';
import { A2A_JSON } from '../data-plane/a2a-wire.js';
import { AgentHistoryService } from '../history/agent-history.service.js';
import type { AgentPushConfigEntity } from './entities/agent-push-config.entity.js';
import { AgentPushEventEntity } from './entities/agent-push-event.entity.js';
import { PushConfigsService } from './push-configs.service.js';

export const PUSH_DELIVERY_TIMEOUT_MS = 15_000;

/** One delivery attempt, as its history row names it. */
interface DeliveryAttempt {
  config: AgentPushConfigEntity;
  event: AgentPushEventEntity;
  attempt: number;
  /** `performance.now()` when the attempt started. */
  started: number;
}

/**
 * Re-delivers stored push events to client webhooks (queue job, retried with the table's backoff). A `pending` event
 * whose job the queue lost is found by the job recovery sweep; events are purged with the history retention.
 */
@Injectable()
export class PushDeliveryService {
  constructor(
    @InjectRepository(AgentPushEventEntity) private readonly events: Repository<AgentPushEventEntity>,
    private readonly configs: PushConfigsService,
    private readonly outbound: OutboundHttpService,
    private readonly history: AgentHistoryService,
    @Inject(LOGGER) private readonly logger: Logger,
    recovery: JobRecoveryRegistry,
    expiredRows: ExpiredRowsRegistry,
    config: GatewayConfig,
  ) {
    recovery.register({
      job: AGENT_JOBS.pushDeliver,
      findOrphans: (olderThanMs, limit) => this.pendingEvents(olderThanMs, limit),
    });
    expiredRows.register({
      name: 'agent_push_events',
      table: 'agent_push_events',
      column: 'created_at',
      retentionMs: parseDuration(config.agent_history.retention),
    });
  }

  /** Events still waiting for delivery, created more than `olderThanMs` ago (the recovery sweep's question). */
  async pendingEvents(olderThanMs: number, limit: number): Promise<Array<JobPayloads['agents.push-deliver']>> {
    const rows = await this.events.find({
      select: { id: true },
      where: { status: 'pending', created_at: LessThan(new Date(Date.now() - olderThanMs)) },
      order: { created_at: 'ASC' },
      take: limit,
    });
    return rows.map((row) => ({ push_event_id: row.id }));
  }

  @JobHandler('agents.push-deliver')
  async deliver(
    payload: { push_event_id: string },
    context: JobContext,
  ): Promise<{ status: number } | { skipped: string }> {
    const event = await this.events.findOne({ where: { id: payload.push_event_id } });
    if (!event) return { skipped: 'event gone' };
    const config = await this.configs.findById(event.push_config_id);
    // The config was deleted since (its events cascade): nothing to deliver to any more.
    if (!config) return { skipped: 'config gone' };
    if (event.status === 'delivered') return { skipped: 'already delivered' };
    const client = this.configs.clientSecrets(config);
    const headers: Record<string, string> = { 'content-type': A2A_JSON, 'a2a-version': '1.0' };
    if (client.authentication?.scheme) {
      headers.authorization = `${client.authentication.scheme} ${client.authentication.credentials}`.trim();
    }
    if (client.token) {
      headers['x-a2a-notification-token'] = client.token;
      headers['a2a-notification-token'] = client.token;
    }
    const delivery: DeliveryAttempt = { config, event, attempt: context.attempt, started: performance.now() };
    await this.events.update({ id: event.id }, { attempts: context.attempt });
    const lastAttempt = context.attempt >= AGENT_JOB_SETTINGS['agents.push-deliver'].attempts;
    try {
      const response = await this.outbound.request(client.url, {
        method: 'POST',
        headers,
        body: event.body,
        timeoutMs: PUSH_DELIVERY_TIMEOUT_MS,
        signal: context.signal,
      });
      await readBodyCapped(response.body, 64 * 1024, 'push receiver').catch(() => undefined);
      const ok = response.status >= 200 && response.status < 300;
      this.recordAttempt(delivery, response.status, ok);
      if (!ok) throw new Error(`push receiver answered HTTP ${response.status}`);
      await this.events.update({ id: event.id }, { status: 'delivered', delivered_at: new Date() });
      return { status: response.status };
    } catch (err) {
      if (!(err instanceof Error && err.message.startsWith('push receiver answered'))) {
        const view = toErrorResponse(err);
        this.recordAttempt(delivery, view.status, false, { ...view.body });
      }
      if (lastAttempt) await this.events.update({ id: event.id }, { status: 'failed' });
      this.logger.warn(
        { err, push_event_id: event.id, attempt: context.attempt, agent: config.agent_name },
        'push delivery attempt failed',
      );
      throw err;
    }
  }

  private recordAttempt(
    { config, event, attempt, started }: DeliveryAttempt,
    status: number,
    ok: boolean,
    error?: Record<string, unknown>,
  ): void {
    this.history.record({
      agent_name: config.agent_name,
      operation: 'PushDelivery',
      virtual_key_id: config.virtual_key_id,
      task_id: event.task_id,
      status: ok ? 'success' : 'error',
      status_code: status,
      latency_ms: performance.now() - started,
      error: ok ? null : (error ?? { message: `push receiver answered HTTP ${status}` }),
      response_payload: { attempt, push_event_id: event.id },
      parent_id: event.operation_id,
    });
  }
}
