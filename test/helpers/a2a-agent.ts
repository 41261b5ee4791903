import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type NextFunction, type Request, type Response } from 'express';
import { AgentCard, type Message, Role, StreamResponse, type Task, TaskState } from '@a2a-js/sdk';
import {
  AgentEvent,
  type AgentExecutor,
  DefaultPushNotificationSender,
  DefaultRequestHandler,
  type ExecutionEventBus,
  InMemoryPushNotificationStore,
  InMemoryTaskStore,
  type PushNotificationSender,
  type RequestContext,
  type ServerCallContext,
} from '@a2a-js/sdk/server';
import { agentCardHandler, jsonRpcHandler, restHandler, UserBuilder } from '@a2a-js/sdk/server/express';

/**
 * A real A2A v1 upstream agent built with @a2a-js/sdk (express adapters) on 127.0.0.1:0, for the Agent Gateway
 * suites. It serves a spec-shaped card (`AgentCard.toJSON`) at `/.well-known/agent-card.json`, JSON-RPC at `/jsonrpc`
 * and HTTP+JSON at `/rest`, records every request's headers, and acts on the a2a-tck messageId prefixes:
 *
 * - `tck-complete-task…`     task → working → artifact → completed
 * - `tck-input-required…`    task → input-required (the task stays open; cancel it to end it)
 * - `tck-stream-001…`        task → working → 3 artifact chunks → completed, with small delays (stream tests)
 * - `tck-message-response…`  a single Message, no task
 * - `tck-reject-task…`       task → rejected
 * - `tck-fail-task…`         task → failed
 * - `tck-slow-…`             task → working, then waits up to 20 s for a cancel (cancel / disconnect tests)
 * - anything else            like `tck-complete-task`
 *
 * The text of every agent reply is `echo: <first text part of the user message>`.
 */
/** The StreamResponse members a `tck-stream-001…` stream carries, in order. */
export const STREAM_001_EVENT_KINDS = [
  'task',
  'statusUpdate',
  'artifactUpdate',
  'artifactUpdate',
  'artifactUpdate',
  'statusUpdate',
] as const;

export interface A2aAgentOptions {
  name?: string;
  description?: string;
  /** Default true. */
  streaming?: boolean;
  /** Default true. */
  pushNotifications?: boolean;
  extendedAgentCard?: boolean;
  /** Spec-shaped (ProtoJSON) security schemes, e.g. `{ bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } } }`. */
  securitySchemes?: Record<string, unknown>;
  /** Spec-shaped requirements, e.g. `[{ schemes: { bearer: { list: [] } } }]`. */
  securityRequirements?: unknown[];
  /** Declared extensions `{ uri, description?, required?, params? }`. */
  extensions?: Array<{ uri: string; description?: string; required?: boolean; params?: Record<string, unknown> }>;
  /** Which interfaces the card lists (default both, JSON-RPC first). */
  interfaces?: Array<'JSONRPC' | 'HTTP+JSON'>;
  /** Tenant put on every listed interface. */
  tenant?: string;
  /** Last-minute edits of the served card JSON (0.3-shaped cards, broken cards, extra fields, …). */
  transformCard?: (card: Record<string, any>) => Record<string, any>;
  /**
   * Header checks for the protocol routes (not the card): return false to answer 401. Example:
   * `(h) => h.authorization === 'Bearer upstream-secret'`.
   */
  authorize?: (headers: IncomingHttpHeaders) => boolean;
  /** Header checks for the card route only (discovery auth); return false to answer 401. */
  authorizeCard?: (headers: IncomingHttpHeaders) => boolean;
  /** Card route path (default `/.well-known/agent-card.json`). */
  cardPath?: string;
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** Parsed JSON body when the request had one (captured after the SDK's parser; undefined for GETs). */
  body?: unknown;
  at: number;
}

export interface RecordedPush {
  /** The push config's url, token and authentication as the upstream stored them. */
  url: string;
  token?: string;
  authentication?: { scheme: string; credentials: string };
  taskId: string;
  /** Spec-shaped StreamResponse JSON that was pushed. */
  event: unknown;
}

export interface A2aAgent {
  /** Base URL, e.g. `http://127.0.0.1:1234`. */
  url: string;
  /** Full card URL (`<url>/.well-known/agent-card.json`). */
  cardUrl: string;
  jsonrpcUrl: string;
  restUrl: string;
  /** The spec-shaped card JSON currently served (before `transformCard`). */
  cardJson: Record<string, any>;
  received: {
    /** Every request (card, JSON-RPC, REST), in arrival order. */
    requests: RecordedRequest[];
    /** Headers of every request, in arrival order (same order as `requests`). */
    headers: IncomingHttpHeaders[];
    /** Push notifications the agent sent (one entry per config per event). */
    pushes: RecordedPush[];
    /** Stream events the executor published per task id (spec JSON, in order). */
    events: Map<string, unknown[]>;
  };
  /** Requests to the protocol routes only (JSON-RPC and REST, not the card). */
  protocolRequests(): RecordedRequest[];
  /** Forget recorded requests/pushes/events. */
  reset(): void;
  close(): Promise<void>;
}

function textPart(text: string) {
  return {
    content: { $case: 'text' as const, value: text },
    metadata: undefined,
    filename: '',
    mediaType: 'text/plain',
  };
}

function firstText(message: Message | undefined): string {
  for (const part of message?.parts ?? []) if (part.content?.$case === 'text') return part.content.value;
  return '';
}

function status(state: TaskState, text?: string, taskId = '', contextId = '') {
  return {
    state,
    timestamp: new Date().toISOString(),
    message: text
      ? {
          messageId: randomUUID(),
          contextId,
          taskId,
          role: Role.ROLE_AGENT,
          parts: [textPart(text)],
          metadata: undefined,
          extensions: [],
          referenceTaskIds: [],
        }
      : undefined,
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

class TckExecutor implements AgentExecutor {
  private readonly cancelled = new Set<string>();

  constructor(private readonly record: (taskId: string, event: StreamResponse) => void) {}

  private publish(bus: ExecutionEventBus, taskId: string, event: StreamResponse): void {
    this.record(taskId, event);
    const payload = event.payload;
    if (!payload) return;
    switch (payload.$case) {
      case 'task':
        bus.publish(AgentEvent.task(payload.value));
        break;
      case 'message':
        bus.publish(AgentEvent.message(payload.value));
        break;
      case 'statusUpdate':
        bus.publish(AgentEvent.statusUpdate(payload.value));
        break;
      case 'artifactUpdate':
        bus.publish(AgentEvent.artifactUpdate(payload.value));
        break;
    }
  }

  async execute(ctx: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const user = ctx.userMessage;
    const id = user.messageId;
    const { taskId, contextId } = ctx;
    const reply = `echo: ${firstText(user)}`;
    if (id.startsWith('tck-message-response')) {
      const message: Message = {
        messageId: randomUUID(),
        contextId,
        taskId: '',
        role: Role.ROLE_AGENT,
        parts: [textPart(reply)],
        metadata: undefined,
        extensions: [],
        referenceTaskIds: [],
      };
      this.publish(bus, '', { payload: { $case: 'message', value: message } });
      bus.finished();
      return;
    }
    const statusUpdate = (state: TaskState, text?: string) =>
      this.publish(bus, taskId, {
        payload: {
          $case: 'statusUpdate',
          value: { taskId, contextId, status: status(state, text, taskId, contextId), metadata: undefined },
        },
      });
    const artifact = (artifactId: string, text: string, append: boolean, lastChunk: boolean) =>
      this.publish(bus, taskId, {
        payload: {
          $case: 'artifactUpdate',
          value: {
            taskId,
            contextId,
            artifact: {
              artifactId,
              name: 'result',
              description: '',
              parts: [textPart(text)],
              metadata: undefined,
              extensions: [],
            },
            append,
            lastChunk,
            metadata: undefined,
          },
        },
      });

    if (!ctx.task) {
      const task: Task = {
        id: taskId,
        contextId,
        status: status(TaskState.TASK_STATE_SUBMITTED, undefined, taskId, contextId),
        artifacts: [],
        history: [user],
        metadata: undefined,
      };
      this.publish(bus, taskId, { payload: { $case: 'task', value: task } });
    }

    if (id.startsWith('tck-input-required')) {
      statusUpdate(TaskState.TASK_STATE_INPUT_REQUIRED, 'need more input');
      return;
    }
    if (id.startsWith('tck-reject-task')) {
      statusUpdate(TaskState.TASK_STATE_REJECTED, 'rejected');
      bus.finished();
      return;
    }
    if (id.startsWith('tck-fail-task')) {
      statusUpdate(TaskState.TASK_STATE_FAILED, 'failed');
      bus.finished();
      return;
    }
    if (id.startsWith('tck-slow')) {
      statusUpdate(TaskState.TASK_STATE_WORKING, 'working');
      for (let i = 0; i < 200 && !this.cancelled.has(taskId); i++) await sleep(100);
      if (!this.cancelled.has(taskId)) {
        statusUpdate(TaskState.TASK_STATE_COMPLETED, reply);
        bus.finished();
      }
      return;
    }
    if (id.startsWith('tck-stream-')) {
      statusUpdate(TaskState.TASK_STATE_WORKING, 'working');
      await sleep(30);
      artifact('stream-artifact', `${reply} [1]`, false, false);
      await sleep(30);
      artifact('stream-artifact', ' [2]', true, false);
      await sleep(30);
      artifact('stream-artifact', ' [3]', true, true);
      await sleep(30);
      statusUpdate(TaskState.TASK_STATE_COMPLETED, 'done');
      bus.finished();
      return;
    }
    // tck-complete-task and default
    statusUpdate(TaskState.TASK_STATE_WORKING, 'working');
    artifact('result-artifact', reply, false, true);
    statusUpdate(TaskState.TASK_STATE_COMPLETED, reply);
    bus.finished();
  }

  cancelTask(taskId: string, bus: ExecutionEventBus): Promise<void> {
    this.cancelled.add(taskId);
    this.publish(bus, taskId, {
      payload: {
        $case: 'statusUpdate',
        value: {
          taskId,
          contextId: '',
          status: status(TaskState.TASK_STATE_CANCELED, 'canceled'),
          metadata: undefined,
        },
      },
    });
    bus.finished();
    return Promise.resolve();
  }
}

/** Wraps the SDK's sender so tests can see what the upstream pushed (and to whom). */
class RecordingPushSender implements PushNotificationSender {
  constructor(
    private readonly store: InMemoryPushNotificationStore,
    private readonly inner: PushNotificationSender,
    private readonly pushes: RecordedPush[],
  ) {}

  async send(event: StreamResponse, context: ServerCallContext, task?: Task): Promise<void> {
    const taskId = task?.id ?? taskIdOf(event);
    if (taskId) {
      const configs = await this.store.load(taskId, context).catch(() => []);
      for (const config of configs) {
        this.pushes.push({
          url: config.url,
          token: config.token || undefined,
          authentication: config.authentication,
          taskId,
          event: toStreamJson(event),
        });
      }
    }
    await this.inner.send(event, context, task);
  }
}

function taskIdOf(event: StreamResponse): string {
  const p = event.payload;
  if (!p) return '';
  if (p.$case === 'task') return p.value.id;
  if (p.$case === 'statusUpdate' || p.$case === 'artifactUpdate') return p.value.taskId;
  return '';
}

function toStreamJson(event: StreamResponse): unknown {
  return StreamResponse.toJSON(event);
}

export async function startA2aAgent(options: A2aAgentOptions = {}): Promise<A2aAgent> {
  const requests: RecordedRequest[] = [];
  const headers: IncomingHttpHeaders[] = [];
  const pushes: RecordedPush[] = [];
  const events = new Map<string, unknown[]>();

  const app = express();
  const server: Server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const cardPath = options.cardPath ?? '/.well-known/agent-card.json';
  const interfaces = options.interfaces ?? ['JSONRPC', 'HTTP+JSON'];

  const cardJson: Record<string, any> = {
    name: options.name ?? 'Test Agent',
    description: options.description ?? 'A2A v1 test agent (a2a-tck prefixes)',
    version: '1.0.0',
    supportedInterfaces: interfaces.map((binding) => ({
      url: binding === 'JSONRPC' ? `${url}/jsonrpc` : `${url}/rest`,
      protocolBinding: binding,
      protocolVersion: '1.0',
      ...(options.tenant ? { tenant: options.tenant } : {}),
    })),
    provider: { organization: 'Gateway Tests', url: 'https://example.com' },
    capabilities: {
      streaming: options.streaming ?? true,
      pushNotifications: options.pushNotifications ?? true,
      extendedAgentCard: options.extendedAgentCard ?? false,
      extensions: (options.extensions ?? []).map((e) => ({
        uri: e.uri,
        description: e.description ?? '',
        required: e.required ?? false,
        ...(e.params ? { params: e.params } : {}),
      })),
    },
    ...(options.securitySchemes ? { securitySchemes: options.securitySchemes } : {}),
    ...(options.securityRequirements ? { securityRequirements: options.securityRequirements } : {}),
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 'echo', name: 'Echo', description: 'Echoes the message text', tags: ['test'] }],
  };
  const card = AgentCard.fromJSON(cardJson);
  const servedJson = () => {
    const json = AgentCard.toJSON(card) as Record<string, any>;
    return options.transformCard ? options.transformCard(structuredClone(json)) : json;
  };

  const taskStore = new InMemoryTaskStore();
  const pushStore = new InMemoryPushNotificationStore();
  const sender = new RecordingPushSender(pushStore, new DefaultPushNotificationSender(pushStore), pushes);
  const executor = new TckExecutor((taskId, event) => {
    const list = events.get(taskId) ?? [];
    list.push(toStreamJson(event));
    events.set(taskId, list);
  });
  const handler = new DefaultRequestHandler(
    card,
    taskStore,
    executor,
    undefined,
    pushStore,
    sender,
    options.extendedAgentCard ? card : undefined,
  );

  // Record every request before any handler runs (the body is filled in after the SDK's JSON parser).
  app.use((req: Request, _res: Response, next: NextFunction) => {
    const entry: RecordedRequest = { method: req.method, path: req.path, headers: { ...req.headers }, at: Date.now() };
    requests.push(entry);
    headers.push(entry.headers);
    (req as Request & { recorded?: RecordedRequest }).recorded = entry;
    next();
  });
  const guard =
    (check: ((h: IncomingHttpHeaders) => boolean) | undefined) => (req: Request, res: Response, next: NextFunction) => {
      if (check && !check(req.headers)) {
        res.status(401).json({ error: { code: 401, status: 'UNAUTHENTICATED', message: 'upstream auth required' } });
        return;
      }
      next();
    };
  const captureBody = (req: Request, _res: Response, next: NextFunction) => {
    const recorded = (req as Request & { recorded?: RecordedRequest }).recorded;
    if (recorded && req.body !== undefined) recorded.body = req.body as unknown;
    next();
  };

  app.get(cardPath, guard(options.authorizeCard), (_req: Request, res: Response) => {
    res.setHeader('content-type', 'application/json');
    res.setHeader('cache-control', 'public, max-age=60');
    res.send(JSON.stringify(servedJson()));
  });
  // Also expose the SDK's own card handler (leaks `$case` for security schemes; for card-shape tests).
  app.use('/sdk-card.json', agentCardHandler({ agentCardProvider: () => Promise.resolve(card) }));
  app.use(
    '/jsonrpc',
    guard(options.authorize),
    express.json({ limit: '10mb' }),
    captureBody,
    jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }),
  );
  app.use(
    '/rest',
    guard(options.authorize),
    express.json({ type: ['application/json', 'application/a2a+json'], limit: '10mb' }),
    captureBody,
    restHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }),
  );

  const sockets = new Set<import('node:net').Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  return {
    url,
    cardUrl: `${url}${cardPath}`,
    jsonrpcUrl: `${url}/jsonrpc`,
    restUrl: `${url}/rest`,
    cardJson,
    received: { requests, headers, pushes, events },
    protocolRequests: () => requests.filter((r) => r.path.startsWith('/jsonrpc') || r.path.startsWith('/rest')),
    reset() {
      requests.length = 0;
      headers.length = 0;
      pushes.length = 0;
      events.clear();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
