// A minimal A2A v1 agent for benches, in plain JS on @a2a-js/sdk (DefaultRequestHandler + express jsonRpcHandler,
// restHandler, agentCardHandler), listening on 127.0.0.1:0. It does no work, so a bench measures the transport:
//
// - messageId `message-…`  SendMessage answers one agent Message (no task)
// - messageId `stream-…`   a task, then working → artifact → completed, `gapMs` apart (default 5 ms), so a relay
//                          that buffered the stream would show in the time to the first event
// - anything else          a task, working, artifact and completed at once: SendMessage answers the completed task
//
// Tasks live in a bounded in-memory store (the last 1,000), so a long load does not grow the agent.
// Run as a process (what the benches do, so the agent does not share the load generator's event loop):
//   node bench/lib/a2a-agent.mjs [--gap-ms 5]    → prints one JSON line {"url": "...", "cardUrl": "...", ...}
// It exits on SIGTERM/SIGINT, and with --exit-with-stdin (what spawnBenchAgent passes) when its stdin closes.
/* global structuredClone */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import express from 'express';
import { AgentCard, Role, TaskState } from '@a2a-js/sdk';
import { AgentEvent, DefaultRequestHandler } from '@a2a-js/sdk/server';
import { agentCardHandler, jsonRpcHandler, restHandler, UserBuilder } from '@a2a-js/sdk/server/express';
import { spawnChildService } from './child-service.mjs';

const textPart = (text) => ({
  content: { $case: 'text', value: text },
  metadata: undefined,
  filename: '',
  mediaType: 'text/plain',
});

function firstText(message) {
  for (const part of message?.parts ?? []) if (part.content?.$case === 'text') return part.content.value;
  return '';
}

const agentMessage = (text, taskId, contextId) => ({
  messageId: randomUUID(),
  contextId,
  taskId,
  role: Role.ROLE_AGENT,
  parts: [textPart(text)],
  metadata: undefined,
  extensions: [],
  referenceTaskIds: [],
});

const status = (state, text, taskId, contextId) => ({
  state,
  timestamp: new Date().toISOString(),
  message: text ? agentMessage(text, taskId, contextId) : undefined,
});

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

class BenchExecutor {
  constructor(gapMs) {
    this.gapMs = gapMs;
  }

  async execute(ctx, bus) {
    const user = ctx.userMessage;
    const { taskId, contextId } = ctx;
    const reply = `echo: ${firstText(user)}`;
    if (user.messageId.startsWith('message-')) {
      bus.publish(AgentEvent.message(agentMessage(reply, '', contextId)));
      bus.finished();
      return;
    }
    const gap = user.messageId.startsWith('stream-') ? this.gapMs : 0;
    if (!ctx.task) {
      bus.publish(
        AgentEvent.task({
          id: taskId,
          contextId,
          status: status(TaskState.TASK_STATE_SUBMITTED, undefined, taskId, contextId),
          artifacts: [],
          history: [user],
          metadata: undefined,
        }),
      );
    }
    const update = (state, text) =>
      bus.publish(
        AgentEvent.statusUpdate({
          taskId,
          contextId,
          status: status(state, text, taskId, contextId),
          metadata: undefined,
        }),
      );
    if (gap) await sleep(gap);
    update(TaskState.TASK_STATE_WORKING, 'working');
    if (gap) await sleep(gap);
    bus.publish(
      AgentEvent.artifactUpdate({
        taskId,
        contextId,
        artifact: {
          artifactId: 'result',
          name: 'result',
          description: '',
          parts: [textPart(reply)],
          metadata: undefined,
          extensions: [],
        },
        append: false,
        lastChunk: true,
        metadata: undefined,
      }),
    );
    if (gap) await sleep(gap);
    update(TaskState.TASK_STATE_COMPLETED, reply);
    bus.finished();
  }

  cancelTask(taskId, bus) {
    bus.publish(
      AgentEvent.statusUpdate({
        taskId,
        contextId: '',
        status: status(TaskState.TASK_STATE_CANCELED),
        metadata: undefined,
      }),
    );
    bus.finished();
    return Promise.resolve();
  }
}

/** TaskStore keeping only the most recent `limit` tasks (insertion order). */
class BoundedTaskStore {
  constructor(limit = 1000) {
    this.limit = limit;
    this.tasks = new Map();
  }
  save(task) {
    this.tasks.delete(task.id);
    this.tasks.set(task.id, structuredClone(task));
    if (this.tasks.size > this.limit) this.tasks.delete(this.tasks.keys().next().value);
    return Promise.resolve();
  }
  load(taskId) {
    const task = this.tasks.get(taskId);
    return Promise.resolve(task ? structuredClone(task) : undefined);
  }
  list() {
    return Promise.resolve({ tasks: [], nextPageToken: '', pageSize: 0, totalSize: 0 });
  }
}

/** Starts the agent in this process. Returns `{ url, cardUrl, jsonrpcUrl, restUrl, close() }`. */
export async function startBenchAgent({ gapMs = 5 } = {}) {
  const app = express();
  const server = createServer(app);
  server.keepAliveTimeout = 60_000;
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${server.address().port}`;
  const card = AgentCard.fromJSON({
    name: 'Bench Agent',
    description: 'A2A v1 bench agent (answers at once)',
    version: '1.0.0',
    supportedInterfaces: [
      { url: `${url}/jsonrpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      { url: `${url}/rest`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
    ],
    provider: { organization: 'Gateway Bench', url: 'https://example.com' },
    capabilities: { streaming: true, pushNotifications: false, extendedAgentCard: false, extensions: [] },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 'echo', name: 'Echo', description: 'Echoes the message text', tags: ['bench'] }],
  });
  const handler = new DefaultRequestHandler(card, new BoundedTaskStore(), new BenchExecutor(gapMs));
  app.use('/.well-known/agent-card.json', agentCardHandler({ agentCardProvider: () => Promise.resolve(card) }));
  app.use('/jsonrpc', jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }));
  app.use('/rest', restHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }));
  const sockets = new Set();
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  return {
    url,
    cardUrl: `${url}/.well-known/agent-card.json`,
    jsonrpcUrl: `${url}/jsonrpc`,
    restUrl: `${url}/rest`,
    close: () =>
      new Promise((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

/**
 * Starts the agent as a child process (its own event loop and core, like a real upstream) and resolves with its
 * URLs, `pid` and `stop()`; stopped on cleanup.
 */
export async function spawnBenchAgent({ gapMs = 5, startTimeoutMs = 30_000 } = {}) {
  return spawnChildService(
    'bench agent',
    [fileURLToPath(import.meta.url), '--gap-ms', String(gapMs), '--exit-with-stdin'],
    { startTimeoutMs },
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: { 'gap-ms': { type: 'string', default: '5' }, 'exit-with-stdin': { type: 'boolean', default: false } },
  });
  const agent = await startBenchAgent({ gapMs: Number(values['gap-ms']) });
  const quit = async () => {
    await agent.close();
    process.exit(0);
  };
  process.once('SIGTERM', quit);
  process.once('SIGINT', quit);
  // Spawned by a bench, the parent holds our stdin: when it goes away (even SIGKILLed), so do we.
  if (values['exit-with-stdin']) process.stdin.on('end', quit).on('error', quit).resume();
  process.stdout.write(
    `${JSON.stringify({ url: agent.url, cardUrl: agent.cardUrl, jsonrpcUrl: agent.jsonrpcUrl, restUrl: agent.restUrl })}\n`,
  );
}
