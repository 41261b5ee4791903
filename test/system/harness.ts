/**
 * The system-test harness (issue 18 §1): real gateway processes started the way a user starts them
 * (`node dist/src/main.js --role api|worker|all --port 0 --app-dir <tmp>`), the provider simulator, and real MCP and
 * A2A peers; helpers to kill, signal and restart the processes and to read their memory.
 *
 * One `systemHarness()` per suite file, called in the `describe` body: it registers an `afterAll` that tears down
 * everything it started (processes with SIGKILL, peers, the simulator, the scratch database and Redis prefix), also
 * when a test failed. Nothing here waits without a bound.
 *
 * ```ts
 * const sys = systemHarness();
 * let stack: Cluster;
 * beforeAll(async () => {
 *   const sim = await sys.simulator();
 *   stack = await sys.cluster({ api: 2, workers: 2 }); // scale-out only; { api: 1 } is one `--role all` process
 *   const vk = await wireSimulator(stack.admin, sim); // provider openai on the simulator, a key, a virtual key
 *   await stack.api[0]!.http.withHeaders({ authorization: `Bearer ${vk}` }).post('/v1/chat/completions', …);
 * });
 * it('…', async () => {
 *   await kill9(stack.api[1]!);                       // SIGKILL, resolves with the exit
 *   signal(stack.api[0]!, 'SIGTERM');                 // send only; `await exited(node)` for the exit
 *   await restart(stack.api[1]!);                     // same env, app dir, database and (api) port
 *   rssBytes(stack.api[0]!);                          // VmRSS from /proc/<pid>/status
 * });
 * ```
 *
 * Run modes: without DATABASE_URL/REDIS_URL each process is on PGlite in its own app dir (so a cluster is one
 * process); with them every process of a cluster shares one scratch database and one Redis prefix (`runModeEnv`).
 * Every process gets the setup token `SYSTEM_SETUP_TOKEN` (`cluster.admin` sends it) and may call loopback peers.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { startA2aAgent, type A2aAgent, type A2aAgentOptions } from '../helpers/a2a-agent.js';
import { migratedAppDir } from '../helpers/databases.js';
import { MAIN_JS, spawnGateway, type GatewayProcess } from '../helpers/gateway-process.js';
import { HttpClient } from '../helpers/http.js';
import { runModeEnv, startSpawned } from '../helpers/spawned-gateway.js';
import { TEST_DATABASE_URL, TEST_REDIS_URL } from '../helpers/test-env.js';
import { startHttpPeer, type McpPeer } from '../mcp/mcp-peers.js';
import { startSimulator, type Simulator, type SimulatorOptions } from '../simulator/server.js';

export const SYSTEM_SETUP_TOKEN = 'system-setup-token-123456';
/** True when DATABASE_URL and REDIS_URL are set: clusters of several processes are possible. */
export const SCALE_OUT = Boolean(TEST_DATABASE_URL && TEST_REDIS_URL);
/** False until `npm run build` wrote dist/: suites skip rather than fail on a missing build. */
export const BUILT = existsSync(MAIN_JS);

export type Role = 'api' | 'worker' | 'all';
export type Exit = { code: number | null; signal: NodeJS.Signals | null };

/** One gateway process. `restart` replaces `gw` (and keeps `port`, `http`, `appDir`, `env`). */
export interface GatewayNode {
  role: Role;
  gw: GatewayProcess;
  /** The bound port (api and all); undefined for a worker, which does not listen. */
  port: number | undefined;
  /** Plain client on the node (throws for a worker). */
  http: HttpClient;
  /** Client with the setup token. */
  admin: HttpClient;
  appDir: string;
  env: Record<string, string>;
  args: string[];
  /** Milliseconds from spawn to the ready line, of the current process. */
  startupMs: number;
}

export interface Cluster {
  api: GatewayNode[];
  workers: GatewayNode[];
  /** The environment every process of the cluster got (database, Redis prefix, encryption key, setup token). */
  env: Record<string, string>;
  /** The management client of the first api node. */
  admin: HttpClient;
}

export interface ClusterOptions {
  /** api processes (default 1). `{ api: 1, workers: 0 }` starts one `--role all` process (works in both modes). */
  api?: number;
  /** worker processes (default 0); more than one process needs the scale-out run mode. */
  workers?: number;
  /** Written to a config file given to every process with `--config`. */
  config?: Record<string, unknown>;
  /** Extra environment for every process. */
  env?: Record<string, string>;
}

const NO_HTTP = new HttpClient('http://127.0.0.1:1');

/** Starts one process with `--role <role>` and waits for its ready line ("gateway listening" / "worker started"). */
export async function startNode(
  role: Role,
  env: Record<string, string>,
  options: { appDir?: string; args?: string[]; port?: number } = {},
): Promise<GatewayNode> {
  const started = Date.now();
  const appDir = options.appDir ?? migratedAppDir(env, `gw-system-${role}-`);
  const args = ['--role', role, ...(options.args ?? [])];
  if (role === 'worker') {
    const gw = spawnGateway(['--app-dir', appDir, ...args], env);
    await gw.waitForLine(/gateway worker started/, 60_000).catch((err: unknown) => {
      gw.child.kill('SIGKILL');
      throw err;
    });
    const startupMs = Date.now() - started;
    return { role, gw, port: undefined, http: NO_HTTP, admin: NO_HTTP, appDir, env, args, startupMs };
  }
  const portArgs = options.port ? ['--port', String(options.port)] : [];
  const spawned = await startSpawned(env, { appDir, args: [...args, ...portArgs] });
  const admin = spawned.http.withHeaders({ 'x-gateway-setup-token': SYSTEM_SETUP_TOKEN });
  const startupMs = Date.now() - started;
  return { role, gw: spawned.gw, port: spawned.port, http: spawned.http, admin, appDir, env, args, startupMs };
}

/** Sends `sig` (SIGTERM, SIGINT, SIGSTOP, …) and returns at once; `exited(node)` waits for the exit. */
export function signal(node: GatewayNode, sig: NodeJS.Signals): void {
  node.gw.child.kill(sig);
}

/** Resolves with the process's exit, or rejects after `timeoutMs`. */
export async function exited(node: GatewayNode, timeoutMs = 60_000): Promise<Exit> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, fail) => {
    timer = setTimeout(
      () => fail(new Error(`pid ${node.gw.child.pid} still running after ${timeoutMs} ms`)),
      timeoutMs,
    );
  });
  try {
    return await Promise.race([node.gw.exit, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** SIGKILL (`kill -9`): no drain, no flush. Resolves with the exit. */
export async function kill9(node: GatewayNode): Promise<Exit> {
  signal(node, 'SIGKILL');
  return exited(node, 10_000);
}

function isRunning(node: GatewayNode): boolean {
  return node.gw.child.exitCode === null && node.gw.child.signalCode === null;
}

/**
 * Starts the node again with the same role, environment, arguments and app dir (so the same PGlite database or the
 * same scratch database), on the same port for api nodes. The old process must have exited (kill9 or a signal).
 */
export async function restart(node: GatewayNode): Promise<GatewayNode> {
  if (isRunning(node)) throw new Error(`pid ${node.gw.child.pid} is still running: kill or signal it first`);
  const next = await startNode(node.role, node.env, { appDir: node.appDir, args: node.args, port: node.port });
  Object.assign(node, { gw: next.gw, port: next.port, http: next.http, admin: next.admin, startupMs: next.startupMs });
  return node;
}

/** Polls GET /health every 100 ms until it answers 200 (`timeoutMs` bound). */
export async function waitHealthy(node: GatewayNode, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  while (Date.now() < deadline) {
    try {
      const res = await node.http.get('/health');
      if (res.status === 200) return;
      last = `${res.status} ${res.text}`;
    } catch (err) {
      last = String(err);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`/health of pid ${node.gw.child.pid} not 200 after ${timeoutMs} ms: ${last}`);
}

/** The resident set size of a running process in bytes (VmRSS of /proc/<pid>/status; Linux only). */
export function rssBytes(node: GatewayNode | number): number {
  const pid = typeof node === 'number' ? node : node.gw.child.pid;
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = /^VmRSS:\s+(\d+)\s+kB$/m.exec(status)?.[1];
  if (!kb) throw new Error(`no VmRSS for pid ${pid}`);
  return Number(kb) * 1024;
}

/**
 * Points provider `openai` at the simulator (no gateway retries, 10 s timeout unless `network_config` says otherwise),
 * adds key `sk-system` and creates a virtual key; returns the virtual key's value.
 */
export async function wireSimulator(
  admin: HttpClient,
  sim: Simulator,
  options: { network_config?: Record<string, unknown>; virtualKey?: Record<string, unknown> } = {},
): Promise<string> {
  const network_config = { default_request_timeout: '10s', max_retries: 0, ...options.network_config };
  const steps: Array<[string, unknown]> = [
    ['/api/providers', { provider: 'openai', base_url: `${sim.url}/openai/v1`, network_config }],
    ['/api/providers/openai/keys', { name: 'system', value: 'sk-system' }],
    ['/api/governance/virtual-keys', { name: 'system', ...options.virtualKey }],
  ];
  let last: any;
  for (const [path, body] of steps) {
    const res = await admin.post(path, body);
    if (res.status !== 201) throw new Error(`POST ${path}: ${res.status} ${res.text}`);
    last = res.body;
  }
  return last.virtual_key.value as string;
}

/**
 * The per-suite harness: every start method records what it started, and the `afterAll` it registers stops all of it
 * (processes with SIGKILL first, then peers, the simulator and the scratch database).
 */
export function systemHarness() {
  const nodes: GatewayNode[] = [];
  const closers: Array<() => Promise<unknown>> = [];
  const cleanUps: Array<() => Promise<void>> = [];

  afterAll(async () => {
    for (const node of nodes) if (isRunning(node)) node.gw.child.kill('SIGKILL');
    await Promise.all(nodes.map((node) => node.gw.exit));
    await Promise.allSettled(closers.splice(0).map((close) => close()));
    for (const cleanUp of cleanUps.splice(0)) await cleanUp().catch(() => undefined);
  }, 60_000);

  const track = (node: GatewayNode): GatewayNode => {
    nodes.push(node);
    return node;
  };

  return {
    /** Every node started (restarted ones included), for a suite's own checks. */
    nodes,

    async simulator(options?: SimulatorOptions): Promise<Simulator> {
      const sim = await startSimulator(options);
      closers.push(() => sim.close());
      return sim;
    },

    /** A stateful Streamable HTTP MCP server (official SDK) with `echo`, `add`, `fail`, `slow` (test/mcp/mcp-peers.ts). */
    async mcpPeer(): Promise<McpPeer> {
      const peer = await startHttpPeer();
      closers.push(() => peer.close());
      return peer;
    },

    /** An A2A v1 agent (official SDK, test/helpers/a2a-agent.ts). */
    async a2aAgent(options?: A2aAgentOptions): Promise<A2aAgent> {
      const agent = await startA2aAgent(options);
      closers.push(() => agent.close());
      return agent;
    },

    /**
     * N api and M worker processes on one database and one Redis prefix (a fresh scratch pair in scale-out mode),
     * started in parallel; `{ api: 1 }` alone is one `--role all` process on its own PGlite app dir when embedded.
     */
    async cluster(options: ClusterOptions = {}): Promise<Cluster> {
      const apiCount = options.api ?? 1;
      const workerCount = options.workers ?? 0;
      const single = apiCount === 1 && workerCount === 0;
      if (!single && !SCALE_OUT) throw new Error('a cluster of several processes needs DATABASE_URL and REDIS_URL');
      const mode = await runModeEnv();
      cleanUps.push(mode.cleanUp);
      const env: Record<string, string> = {
        ...mode.env,
        GATEWAY_SETUP_TOKEN: SYSTEM_SETUP_TOKEN,
        GATEWAY_OUTBOUND_ALLOW_LOOPBACK: 'true',
        ...options.env,
      };
      const args: string[] = [];
      if (options.config) {
        const configPath = join(mkdtempSync(join(tmpdir(), 'gw-system-config-')), 'config.json');
        writeFileSync(configPath, JSON.stringify(options.config));
        args.push('--config', configPath);
      }
      // All at once: migrations run under an advisory lock, so replicas can start together.
      // Settled, not all: a process that started beside one that failed is still torn down.
      const settled = await Promise.allSettled([
        startNode(single ? 'all' : 'api', env, { args }),
        ...Array.from({ length: apiCount - 1 }, () => startNode('api', env, { args })),
        ...Array.from({ length: workerCount }, () => startNode('worker', env, { args })),
      ]);
      const started = settled.flatMap((s) => (s.status === 'fulfilled' ? [track(s.value)] : []));
      const failed = settled.find((s) => s.status === 'rejected');
      if (failed) throw failed.reason;
      const api = started.slice(0, apiCount);
      const admin = api[0]!.admin;
      return { api, workers: started.slice(apiCount), env, admin };
    },
  };
}

export type SystemHarness = ReturnType<typeof systemHarness>;
