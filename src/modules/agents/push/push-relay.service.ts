import { Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { GatewayException } from '../../../core/errors/gateway.exception.js';
import type { AgentAccessService, AuthorizedCall } from '../data-plane/agent-access.service.js';
import { PushConfigsService, type WirePushConfig } from './push-configs.service.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface PreparedPush<T> {
  /** What goes upstream (the gateway's callback instead of the client's webhook). */
  payload: T;
  /** The stored config (undefined when the request carried none). */
  rowId?: string;
}

/** Swaps client push configs for gateway callbacks on the way upstream (both bindings use it). */
@Injectable()
export class PushRelayService {
  constructor(private readonly configs: PushConfigsService) {}

  /** SendMessage / SendStreamingMessage: `configuration.taskPushNotificationConfig`. */
  async prepareSend(
    access: AgentAccessService,
    request: FastifyRequest,
    call: AuthorizedCall,
    params: unknown,
  ): Promise<PreparedPush<unknown>> {
    if (!isObj(params) || !isObj(params.configuration)) return { payload: params };
    const client = params.configuration.taskPushNotificationConfig;
    if (!isObj(client) || typeof client.url !== 'string' || client.url === '') return { payload: params };
    const message = isObj(params.message) ? params.message : {};
    const taskId = typeof message.taskId === 'string' && message.taskId ? message.taskId : null;
    const { row, upstream } = await this.configs.register({
      agentName: call.agent.name,
      virtualKeyId: call.virtualKey.id,
      taskId,
      client: client,
      baseUrl: access.baseUrl(request),
    });
    return {
      payload: { ...params, configuration: { ...params.configuration, taskPushNotificationConfig: upstream } },
      rowId: row.id,
    };
  }

  /** CreateTaskPushNotificationConfig: the config itself (task id from the params or the REST path). */
  async prepareCreate(
    access: AgentAccessService,
    request: FastifyRequest,
    call: AuthorizedCall,
    config: unknown,
    taskId: string | undefined,
  ): Promise<PreparedPush<WirePushConfig>> {
    const client = (isObj(config) ? config : {}) as WirePushConfig;
    const task = taskId ?? client.taskId;
    if (!task) throw GatewayException.validation('taskId', 'taskId is required to create a push notification config');
    const { row, upstream } = await this.configs.register({
      agentName: call.agent.name,
      virtualKeyId: call.virtualKey.id,
      taskId: task,
      client: { ...client, taskId: task },
      baseUrl: access.baseUrl(request),
    });
    return { payload: { ...upstream, taskId: task }, rowId: row.id };
  }

  bind(rowId: string | undefined, taskId: string | undefined): Promise<void> {
    if (!rowId || !taskId) return Promise.resolve();
    return this.configs.bindTask(rowId, taskId);
  }

  discard(rowId: string | undefined): Promise<void> {
    return rowId ? this.configs.remove(rowId) : Promise.resolve();
  }

  async clientView(rowId: string): Promise<WirePushConfig | undefined> {
    const row = await this.configs.findById(rowId);
    return row ? this.configs.clientView(row) : undefined;
  }
}
