import { Inject, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { clip } from '../../../core/http/echo.js';
import { toErrorResponse } from '../../../core/errors/error-response.js';
import { GatewayException } from '../../../core/errors/gateway.exception.js';
import { LOGGER } from '../../../core/logging/logging.module.js';
import { OutboundHttpService, readBodyCapped } from '../../../core/outbound/outbound-http.service.js';
import { AgentHistoryService } from '../history/agent-history.service.js';
import { PushConfigsService } from '../push/push-configs.service.js';
import { PushConfigRemoval } from '../push/push-config-removal.service.js';
import { PushRelayService } from '../push/push-relay.service.js';
import { A2A_JSON, matchRestRoute, STREAMING_METHODS, taskInfoOf, type RestRoute, type TaskInfo } from './a2a-wire.js';
import { AgentAccessService, type AuthorizedCall } from './agent-access.service.js';
import { sendSingleSseEvent } from '../../../core/http/sse/sse-writer.js';
import { StreamEventRecorder } from './stream-events.js';
import { MAX_RESPONSE_BYTES, openUpstreamCall, type UpstreamCall } from './upstream-call.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

interface RestCall {
  name: string;
  call: AuthorizedCall;
  route: RestRoute;
  query: string;
  started: number;
}

/** `/agents/a2a/{name}/rest/*`: the A2A v1 HTTP+JSON binding relayed to the upstream's HTTP+JSON interface. */
@Injectable()
export class RestProxyService {
  constructor(
    private readonly access: AgentAccessService,
    private readonly outbound: OutboundHttpService,
    private readonly history: AgentHistoryService,
    private readonly pushConfigs: PushConfigsService,
    private readonly push: PushRelayService,
    private readonly removal: PushConfigRemoval,
    private readonly streamEvents: StreamEventRecorder,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async handle(request: FastifyRequest, reply: FastifyReply, name: string, rawPath: string): Promise<void> {
    const started = performance.now();
    const route = matchRestRoute(request.method, rawPath);
    const call = await this.access.authorize(request, name, route?.operation, 'HTTP+JSON');
    if (!route) {
      throw new GatewayException(
        404,
        'route_not_found',
        `${clip(request.method, 20)} /${clip(rawPath)} is not an A2A v1 HTTP+JSON operation`,
      );
    }
    const queryIndex = request.url.indexOf('?');
    const rest: RestCall = { name, call, route, query: queryIndex >= 0 ? request.url.slice(queryIndex) : '', started };
    try {
      await this.dispatch(request, reply, rest);
    } catch (err) {
      const view = toErrorResponse(err, request.errorFields);
      this.record(rest, view.status, false, request.body, view.body, { task_id: route.taskId }, view.body);
      if (reply.sent || reply.raw.headersSent) {
        this.logger.warn(
          { err, event_id: view.body.event_id, agent: name, operation: route.operation },
          'agent REST call failed after the response started',
        );
        return;
      }
      throw err;
    }
  }

  private async dispatch(request: FastifyRequest, reply: FastifyReply, rest: RestCall): Promise<void> {
    const { route } = rest;
    const body: unknown = request.body;
    switch (route.operation) {
      case 'GetTaskPushNotificationConfig': {
        const row = await this.pushConfigs.find(rest.name, route.taskId ?? '', route.configId ?? '');
        if (!row) throw this.pushConfigNotFound(route);
        return this.answer(reply, rest, 200, this.pushConfigs.clientView(row), body);
      }
      case 'ListTaskPushNotificationConfigs': {
        const rows = await this.pushConfigs.listForTask(rest.name, route.taskId ?? '');
        const result = { configs: rows.map((r) => this.pushConfigs.clientView(r)), nextPageToken: '' };
        return this.answer(reply, rest, 200, result, body);
      }
      case 'DeleteTaskPushNotificationConfig': {
        const row = await this.pushConfigs.find(rest.name, route.taskId ?? '', route.configId ?? '');
        if (!row) return this.forward(request, reply, rest, undefined, undefined, false);
        await this.removal.remove(row, () => this.access.context(request, rest.call), 'rest');
        return this.answer(reply, rest, 204, undefined, body);
      }
      case 'CreateTaskPushNotificationConfig': {
        const prepared = await this.push.prepareCreate(this.access, request, rest.call, body, route.taskId);
        return this.forward(request, reply, rest, prepared.payload, prepared.rowId, true);
      }
      case 'SendMessage':
      case 'SendStreamingMessage': {
        const prepared = await this.push.prepareSend(this.access, request, rest.call, body);
        return this.forward(request, reply, rest, prepared.payload, prepared.rowId, false);
      }
      case 'GetTask':
      case 'ListTasks':
      case 'CancelTask':
      case 'SubscribeToTask':
      case 'GetExtendedAgentCard':
        return this.forward(request, reply, rest, body, undefined, false);
    }
  }

  /** Relays the call. */
  private async forward(
    request: FastifyRequest,
    reply: FastifyReply,
    rest: RestCall,
    payload: unknown,
    pushRowId: string | undefined,
    answerWithClientConfig: boolean,
  ): Promise<void> {
    const { agent } = rest.call;
    const streaming = STREAMING_METHODS.has(rest.route.operation);
    const hasBody = request.method !== 'GET' && request.method !== 'DELETE' && request.method !== 'HEAD';
    const deps = { access: this.access, outbound: this.outbound, push: this.push };
    const upstream = await openUpstreamCall(deps, request, rest.call, pushRowId, {
      binding: 'rest',
      contentType: hasBody ? A2A_JSON : undefined,
      streaming,
      accept: `${A2A_JSON}, application/json`,
      build: (iface) => {
        const base = iface.url.replace(/\/+$/, '');
        const tenant = iface.tenant ? `/${encodeURIComponent(iface.tenant)}` : '';
        const url = `${base}${tenant}/${rest.route.path}${rest.query}`;
        return { url, method: request.method, body: hasBody ? JSON.stringify(payload ?? {}) : undefined };
      },
    });
    const { response, contentType } = upstream;
    if ((response.status === 404 || response.status === 405) && request.method === 'POST') {
      this.access.refreshCardLater(agent);
    }
    if (upstream.eventStream) return this.relayStream(request, reply, rest, upstream, pushRowId);
    const buffer = await readBodyCapped(response.body, MAX_RESPONSE_BYTES, `agent ${agent.name}`);
    const text = buffer.toString('utf8');
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    const ok = response.status < 300;
    if (ok) {
      await this.push.bind(pushRowId, taskInfoOf(json).task_id);
      if (answerWithClientConfig && pushRowId) json = (await this.push.clientView(pushRowId)) ?? json;
      if (rest.route.operation === 'GetExtendedAgentCard' && isObj(json)) {
        json = await this.access.servedCard(request, agent, json);
      }
    } else {
      await this.push.discard(pushRowId).catch(() => undefined);
    }
    this.record(rest, response.status, ok, request.body, json ?? text, taskInfoOf(json), ok ? null : (json ?? text));
    if (streaming && ok && json !== undefined) {
      sendSingleSseEvent(request, reply, JSON.stringify(json));
      return;
    }
    const extension = response.headers['a2a-extensions'];
    if (typeof extension === 'string') void reply.header('a2a-extensions', extension);
    void reply.status(response.status);
    if (response.status === 204 || text === '') {
      void reply.send();
      return;
    }
    if (json !== undefined) {
      void reply.header('content-type', contentType || A2A_JSON).send(JSON.stringify(json));
      return;
    }
    void reply.header('content-type', contentType || 'text/plain').send(text);
  }

  private async relayStream(
    request: FastifyRequest,
    reply: FastifyReply,
    rest: RestCall,
    upstream: UpstreamCall,
    pushRowId: string | undefined,
  ): Promise<void> {
    const stream = this.streamEvents.start('HTTP+JSON', rest, pushRowId, { task_id: rest.route.taskId });
    const result = await stream.relay(request, reply, upstream, {
      onEvent: (event) => {
        const failed = isObj(event) && isObj(event.error);
        stream.record(event, event, { failed, error: failed ? (event as { error: Obj }).error : null });
      },
      // The official REST client reads an `error` event as a failure; a plain data event would look like a normal end.
      formatError: (err) => ({ event: 'error', data: JSON.stringify(toErrorResponse(err, request.errorFields).body) }),
    });
    stream.finish(request, result, {
      operation: rest.route.operation,
      failed: Boolean(result.error),
      error: result.error ? { ...toErrorResponse(result.error, request.errorFields).body } : null,
      request_payload: request.body ?? null,
    });
  }

  private answer(reply: FastifyReply, rest: RestCall, status: number, result: unknown, requestBody: unknown): void {
    this.record(rest, status, true, requestBody, result ?? null, { task_id: rest.route.taskId }, null);
    void reply.status(status);
    if (result === undefined) {
      void reply.send();
      return;
    }
    void reply.header('content-type', A2A_JSON).send(JSON.stringify(result));
  }

  private pushConfigNotFound(route: RestRoute): GatewayException {
    return GatewayException.notFound(
      'push_config',
      `Push notification config ${route.configId ?? ''} of task ${route.taskId ?? ''} not found`,
    );
  }

  private record(
    rest: RestCall,
    status: number,
    ok: boolean,
    requestPayload: unknown,
    responsePayload: unknown,
    info: TaskInfo,
    error: unknown,
  ): void {
    this.history.record({
      agent_name: rest.name,
      operation: rest.route.operation,
      protocol_binding: 'HTTP+JSON',
      virtual_key_id: rest.call.virtualKey.id,
      task_id: info.task_id ?? rest.route.taskId,
      context_id: info.context_id,
      task_state: info.task_state,
      status: ok ? 'success' : 'error',
      status_code: status,
      latency_ms: performance.now() - rest.started,
      error: ok ? null : isObj(error) ? error : error === undefined ? null : { body: error },
      request_payload: requestPayload ?? null,
      response_payload: responsePayload,
    });
  }
}
