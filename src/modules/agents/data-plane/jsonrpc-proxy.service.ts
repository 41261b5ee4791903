import { Inject, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { eventIdOf } from '../../../core/errors/error-response.js';
import { logErrorResponse } from '../../../core/errors/gateway-error.filter.js';
import { GatewayException } from '../../../core/errors/gateway.exception.js';
import { LOGGER } from '../../../core/logging/logging.module.js';
import { OutboundHttpService, readBodyCapped } from '../../../core/outbound/outbound-http.service.js';
import { AgentHistoryService } from '../history/agent-history.service.js';
import { PushConfigsService } from '../push/push-configs.service.js';
import { PushConfigRemoval } from '../push/push-config-removal.service.js';
import { PushRelayService } from '../push/push-relay.service.js';
import {
  historyOperationOf,
  isA2aMethod,
  requestTaskInfo,
  RPC,
  STREAMING_METHODS,
  taskInfoOf,
  type A2aMethod,
  type TaskInfo,
} from './a2a-wire.js';
import { AgentAccessService, type AuthorizedCall } from './agent-access.service.js';
import {
  invalidRequest,
  isRpcEnvelope,
  methodNotFound,
  rpcErrorReply,
  upstreamProtocolError,
  type RpcId,
} from './jsonrpc-envelope.js';
import { sendSingleSseEvent } from '../../../core/http/sse/sse-writer.js';
import { StreamEventRecorder } from './stream-events.js';
import { MAX_RESPONSE_BYTES, openUpstreamCall, type UpstreamCall } from './upstream-call.js';

export { MAX_RESPONSE_BYTES, STREAM_CONNECT_TIMEOUT_MS, UNARY_TIMEOUT_MS } from './upstream-call.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

interface RpcCall {
  name: string;
  call: AuthorizedCall;
  id: RpcId;
  method: string;
  /** What history records the call as (`historyOperationOf`); none: no row. */
  operation: A2aMethod | undefined;
  /** The client's request (history keeps this one, not the rewritten one). */
  original: Obj;
  /** The request's error extra fields (A2A operation and agent name). */
  errorFields: Record<string, unknown> | undefined;
  started: number;
}

/** `POST /agents/a2a/{name}/jsonrpc`: A2A v1 JSON-RPC relayed to the upstream's JSONRPC interface. */
@Injectable()
export class JsonRpcProxyService {
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

  async handle(request: FastifyRequest, reply: FastifyReply, name: string): Promise<void> {
    const started = performance.now();
    const body = request.body;
    const method = isObj(body) && typeof body.method === 'string' ? body.method : '';
    const operation = historyOperationOf(method);
    // Caller auth and access are plain HTTP GatewayErrors (decided before the JSON-RPC layer).
    const call = await this.access.authorize(request, name, operation, 'JSONRPC');
    const id: RpcId = isObj(body) && (typeof body.id === 'string' || typeof body.id === 'number') ? body.id : null;
    const rpc: RpcCall = {
      name,
      call,
      id,
      method,
      operation,
      original: isObj(body) ? body : {},
      errorFields: request.errorFields,
      started,
    };
    try {
      if (Array.isArray(body)) throw invalidRequest('JSON-RPC batch requests are not supported');
      if (!isObj(body)) throw invalidRequest('The body must be a JSON-RPC 2.0 request object');
      if (body.jsonrpc !== '2.0') throw invalidRequest('jsonrpc must be "2.0"', 'jsonrpc');
      if (typeof body.method !== 'string' || body.method === '') throw invalidRequest('method is required', 'method');
      if ('id' in body && body.id !== null && typeof body.id !== 'string' && typeof body.id !== 'number') {
        throw invalidRequest('id must be a string, a number or null', 'id');
      }
      if (body.params !== undefined && !isObj(body.params)) throw invalidRequest('params must be an object', 'params');
      if (!isA2aMethod(body.method)) {
        return this.fail(reply, rpc, methodNotFound(body.method), RPC.methodNotFound);
      }
      await this.dispatch(request, reply, rpc, body.method, isObj(body.params) ? body.params : {});
    } catch (err) {
      const code =
        err instanceof GatewayException && err.code === 'invalid_jsonrpc_request' ? RPC.invalidRequest : undefined;
      if (reply.sent || reply.raw.headersSent) {
        this.logger.warn(
          { err, event_id: eventIdOf(err), agent: name, method },
          'agent JSON-RPC call failed after the response started',
        );
        return;
      }
      this.fail(reply, rpc, err, code);
    }
  }

  private async dispatch(request: FastifyRequest, reply: FastifyReply, rpc: RpcCall, method: string, params: Obj) {
    switch (method) {
      case 'GetTaskPushNotificationConfig':
        return this.getPushConfig(reply, rpc, params);
      case 'ListTaskPushNotificationConfigs':
        return this.listPushConfigs(reply, rpc, params);
      case 'DeleteTaskPushNotificationConfig':
        return this.deletePushConfig(request, reply, rpc, params);
      case 'CreateTaskPushNotificationConfig': {
        const prepared = await this.push.prepareCreate(
          this.access,
          request,
          rpc.call,
          params,
          typeof params.taskId === 'string' ? params.taskId : undefined,
        );
        return this.forward(request, reply, rpc, { ...params, ...prepared.payload }, prepared.rowId, true);
      }
      case 'SendMessage':
      case 'SendStreamingMessage': {
        const prepared = await this.push.prepareSend(this.access, request, rpc.call, params);
        return this.forward(request, reply, rpc, prepared.payload as Obj, prepared.rowId, false);
      }
      default:
        return this.forward(request, reply, rpc, params, undefined, false);
    }
  }

  /** Sends the call upstream (unary or streamed) and relays the answer. */
  private async forward(
    request: FastifyRequest,
    reply: FastifyReply,
    rpc: RpcCall,
    params: Obj,
    pushRowId: string | undefined,
    answerWithClientConfig: boolean,
  ): Promise<void> {
    const { agent } = rpc.call;
    const streaming = STREAMING_METHODS.has(rpc.method);
    const deps = { access: this.access, outbound: this.outbound, push: this.push };
    const upstream = await openUpstreamCall(deps, request, rpc.call, pushRowId, {
      binding: 'jsonrpc',
      contentType: 'application/json',
      streaming,
      accept: 'application/json',
      build: (iface) => {
        const upstreamParams = iface.tenant && !params.tenant ? { ...params, tenant: iface.tenant } : params;
        const outgoing = { jsonrpc: '2.0', id: rpc.id, method: rpc.method, params: upstreamParams };
        return { url: iface.url, method: 'POST', body: JSON.stringify(outgoing) };
      },
    });
    const { response, contentType } = upstream;
    if (response.status === 404 || response.status === 405) this.access.refreshCardLater(agent);
    if (upstream.eventStream) return this.relayStream(request, reply, rpc, upstream, pushRowId);

    const text = (await readBodyCapped(response.body, MAX_RESPONSE_BYTES, `agent ${agent.name}`)).toString('utf8');
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    if (!isRpcEnvelope(json)) {
      await this.push.discard(pushRowId).catch(() => undefined);
      throw upstreamProtocolError(
        `Agent ${agent.name} answered HTTP ${response.status} without a JSON-RPC response (${contentType || 'no content type'})`,
      );
    }
    const ok = response.status < 300 && !('error' in json && json.error);
    let payload: Obj = json;
    if (ok) {
      const info = taskInfoOf(json.result);
      await this.push.bind(pushRowId, info.task_id);
      if (rpc.method === 'GetExtendedAgentCard' && isObj(json.result)) {
        // The extended card names the upstream's own URLs: serve it rewritten like the public card.
        payload = { ...json, result: await this.access.servedCard(request, agent, json.result) };
      }
      if (answerWithClientConfig && pushRowId) {
        const view = await this.push.clientView(pushRowId);
        if (view) payload = { jsonrpc: '2.0', id: json.id ?? rpc.id, result: view };
      }
    } else {
      await this.push.discard(pushRowId).catch(() => undefined);
    }
    const status = response.status >= 200 && response.status < 600 ? response.status : 502;
    this.recordCall(rpc, status, ok, payload, ok ? taskInfoOf(json.result) : {});
    if (streaming && ok) {
      // The upstream answered a streaming call with plain JSON: re-frame it as one SSE event.
      sendSingleSseEvent(request, reply, JSON.stringify(payload));
      return;
    }
    this.send(reply, status, payload, response.headers);
  }

  private async relayStream(
    request: FastifyRequest,
    reply: FastifyReply,
    rpc: RpcCall,
    upstream: UpstreamCall,
    pushRowId: string | undefined,
  ): Promise<void> {
    const stream = this.streamEvents.start('JSONRPC', rpc, pushRowId, requestTaskInfo(rpc.original.params));
    let lastError: unknown;
    const extension = upstream.response.headers['a2a-extensions'];
    const result = await stream.relay(
      request,
      reply,
      upstream,
      {
        onEvent: (event) => {
          if (isObj(event) && event.error) lastError = event.error;
          stream.record(event, isObj(event) && 'result' in event ? event.result : event, {
            failed: isObj(event) && Boolean(event.error),
            error: isObj(event) && isObj(event.error) ? event.error : null,
          });
        },
        formatError: (err) => JSON.stringify(rpcErrorReply(rpc.id, err, rpc.errorFields).body),
      },
      typeof extension === 'string' ? { 'a2a-extensions': extension } : {},
    );
    stream.finish(request, result, {
      operation: rpc.method, // a stream is only ever opened for a v1 method
      failed: result.error !== undefined || lastError !== undefined,
      error: result.error
        ? { ...rpcErrorReply(rpc.id, result.error, rpc.errorFields).body.error.data }
        : isObj(lastError)
          ? lastError
          : null,
      request_payload: rpc.original,
    });
  }

  private async getPushConfig(reply: FastifyReply, rpc: RpcCall, params: Obj): Promise<void> {
    const taskId = typeof params.taskId === 'string' ? params.taskId : '';
    const configId = typeof params.id === 'string' ? params.id : '';
    if (!taskId || !configId) throw GatewayException.validation('params', 'taskId and id are required');
    const row = await this.pushConfigs.find(rpc.name, taskId, configId);
    if (!row) throw this.pushConfigNotFound(taskId, configId);
    const payload = { jsonrpc: '2.0', id: rpc.id, result: this.pushConfigs.clientView(row) };
    this.recordCall(rpc, 200, true, payload, { task_id: taskId });
    this.send(reply, 200, payload);
  }

  private async listPushConfigs(reply: FastifyReply, rpc: RpcCall, params: Obj): Promise<void> {
    const taskId = typeof params.taskId === 'string' ? params.taskId : '';
    if (!taskId) throw GatewayException.validation('params.taskId', 'taskId is required');
    const rows = await this.pushConfigs.listForTask(rpc.name, taskId);
    const payload = {
      jsonrpc: '2.0',
      id: rpc.id,
      result: { configs: rows.map((r) => this.pushConfigs.clientView(r)), nextPageToken: '' },
    };
    this.recordCall(rpc, 200, true, payload, { task_id: taskId });
    this.send(reply, 200, payload);
  }

  /** Deletes upstream and locally; a config the gateway holds is gone for the client even if the upstream forgot it. */
  private async deletePushConfig(request: FastifyRequest, reply: FastifyReply, rpc: RpcCall, params: Obj) {
    const taskId = typeof params.taskId === 'string' ? params.taskId : '';
    const configId = typeof params.id === 'string' ? params.id : '';
    if (!taskId || !configId) throw GatewayException.validation('params', 'taskId and id are required');
    const row = await this.pushConfigs.find(rpc.name, taskId, configId);
    if (!row) return this.forward(request, reply, rpc, params, undefined, false);
    await this.removal.remove(row, () => this.access.context(request, rpc.call), 'jsonrpc');
    const payload = { jsonrpc: '2.0', id: rpc.id, result: null };
    this.recordCall(rpc, 200, true, payload, { task_id: taskId });
    this.send(reply, 200, payload);
  }

  private pushConfigNotFound(taskId: string, configId: string): GatewayException {
    return GatewayException.notFound('push_config', `Push notification config ${configId} of task ${taskId} not found`);
  }

  private recordCall(rpc: RpcCall, status: number, ok: boolean, payload: Obj, info: TaskInfo): void {
    if (rpc.operation === undefined) return;
    const request = requestTaskInfo(rpc.original.params);
    this.history.record({
      agent_name: rpc.name,
      operation: rpc.operation,
      protocol_binding: 'JSONRPC',
      virtual_key_id: rpc.call.virtualKey.id,
      task_id: info.task_id ?? request.task_id,
      context_id: info.context_id ?? request.context_id,
      task_state: info.task_state,
      status: ok ? 'success' : 'error',
      status_code: status,
      latency_ms: performance.now() - rpc.started,
      error: ok ? null : isObj(payload.error) ? payload.error : null,
      request_payload: rpc.original,
      response_payload: payload,
    });
  }

  private fail(reply: FastifyReply, rpc: RpcCall, err: unknown, code?: number): void {
    const out = rpcErrorReply(rpc.id, err, rpc.errorFields, code);
    logErrorResponse(this.logger, reply.request, { ...out, body: out.body.error.data }, err);
    if (rpc.operation !== undefined) this.recordFailure(rpc, rpc.operation, out);
    this.send(reply, out.status, out.body, out.headers);
  }

  private recordFailure(rpc: RpcCall, operation: A2aMethod, out: ReturnType<typeof rpcErrorReply>): void {
    this.history.record({
      agent_name: rpc.name,
      operation,
      protocol_binding: 'JSONRPC',
      virtual_key_id: rpc.call.virtualKey.id,
      ...requestTaskInfo(rpc.original.params),
      status: 'error',
      status_code: out.status,
      latency_ms: performance.now() - rpc.started,
      error: out.body.error.data as unknown as Record<string, unknown>,
      request_payload: rpc.original,
      response_payload: out.body,
    });
  }

  private send(
    reply: FastifyReply,
    status: number,
    payload: unknown,
    headers: Record<string, string | string[] | undefined> = {},
  ): void {
    const extension = headers['a2a-extensions'];
    if (typeof extension === 'string') void reply.header('a2a-extensions', extension);
    for (const [k, v] of Object.entries(headers)) {
      if (k.toLowerCase() === 'retry-after' && typeof v === 'string') void reply.header('retry-after', v);
    }
    void reply.status(status).header('content-type', 'application/json; charset=utf-8').send(JSON.stringify(payload));
  }
}
