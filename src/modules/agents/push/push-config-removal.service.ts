import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { LOGGER } from '../../../core/logging/logging.module.js';
import { OutboundHttpService, type AgentTlsSettings } from '../../../core/outbound/outbound-http.service.js';
import type { UpstreamCard } from '../a2a/agent-card.service.js';
import type { AgentPushConfigEntity } from './entities/agent-push-config.entity.js';
import { PushConfigsService } from './push-configs.service.js';

/** How to reach the upstream for the removal: its card, headers and TLS (the caller's binding rules applied). */
export interface UpstreamRemovalContext {
  upstream: UpstreamCard;
  headers: Record<string, string>;
  tls: AgentTlsSettings | null;
}

const UPSTREAM_DELETE_TIMEOUT_MS = 15_000;

/**
 * Deleting a relayed push config, for all three ways in (JSON-RPC, HTTP+JSON, management): the gateway's row goes
 * first (the client's config is gone for the client even if the upstream forgot it), then the upstream's copy of the
 * gateway's callback, best effort through the binding the caller used when the upstream offers it.
 */
@Injectable()
export class PushConfigRemoval {
  constructor(
    private readonly configs: PushConfigsService,
    private readonly outbound: OutboundHttpService,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async remove(
    row: AgentPushConfigEntity,
    context: () => Promise<UpstreamRemovalContext | null>,
    preferred: 'jsonrpc' | 'rest' = 'jsonrpc',
  ): Promise<void> {
    await this.configs.remove(row.id);
    const taskId = row.task_id ?? '';
    try {
      const ctx = await context();
      if (ctx) await this.deleteUpstream(ctx, taskId, row.config_id, preferred);
    } catch (err) {
      this.logger.warn({ err, agent: row.agent_name }, 'upstream push config delete failed (removed in the gateway)');
    }
  }

  private async deleteUpstream(
    ctx: UpstreamRemovalContext,
    taskId: string,
    configId: string,
    preferred: 'jsonrpc' | 'rest',
  ): Promise<void> {
    const { jsonrpc, rest } = ctx.upstream;
    const binding = preferred === 'rest' ? (rest ? 'rest' : 'jsonrpc') : jsonrpc ? 'jsonrpc' : 'rest';
    const common = { tls: ctx.tls, timeoutMs: UPSTREAM_DELETE_TIMEOUT_MS };
    if (binding === 'jsonrpc' && jsonrpc) {
      const params = { taskId, id: configId, ...(jsonrpc.tenant ? { tenant: jsonrpc.tenant } : {}) };
      const res = await this.outbound.request(jsonrpc.url, {
        ...common,
        method: 'POST',
        headers: { ...ctx.headers, 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'DeleteTaskPushNotificationConfig', params }),
      });
      await res.body.dump();
    } else if (rest) {
      const tenant = rest.tenant ? `/${encodeURIComponent(rest.tenant)}` : '';
      const path = `tasks/${encodeURIComponent(taskId)}/pushNotificationConfigs/${encodeURIComponent(configId)}`;
      const res = await this.outbound.request(`${rest.url.replace(/\/+$/, '')}${tenant}/${path}`, {
        ...common,
        method: 'DELETE',
        headers: ctx.headers,
      });
      await res.body.dump();
    }
  }
}
