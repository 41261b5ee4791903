import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { freePort } from '../helpers/gateway-process.js';

/**
 * Private Postgres and Redis servers for the outage suites: the machine's shared ones (5432, 6379) serve everyone
 * else's tests and are never stopped. Each server here listens on a free loopback port, in a temp dir of its own, and
 * `stop()` / `start()` really stop and start the server process (the gateway sees a refused port, then a fresh
 * server with the same data). `close()` tears everything down; call it in afterAll.
 */

const PG_BIN = '/usr/lib/postgresql/15/bin';

async function until(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`${what}: not ready after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Runs a command as the `postgres` OS user (initdb refuses root); throws with its output when it fails. */
function asPostgres(args: string[]): string {
  const run = spawnSync('runuser', ['-u', 'postgres', '--', ...args], { encoding: 'utf8', timeout: 60_000 });
  if (run.status !== 0) throw new Error(`${args.join(' ')} failed (${run.status}): ${run.stdout}${run.stderr}`);
  return run.stdout;
}

export interface PrivatePostgres {
  port: number;
  /** The server URL (the `postgres` database); `databaseUrl(name)` for another one. */
  url: string;
  databaseUrl(name: string): string;
  createDatabase(name: string, template?: string): Promise<string>;
  /** `pg_ctl stop -m fast`: sessions are terminated, the port closes. */
  stop(): Promise<void>;
  /** `pg_ctl start` on the same port and data; resolves once it accepts connections. */
  start(): Promise<void>;
  close(): Promise<void>;
}

/** A PostgreSQL 15 cluster of its own: trust auth on 127.0.0.1:<free port>, fsync off (test data only). */
export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const port = await freePort();
  const root = mkdtempSync(join(tmpdir(), 'gw-pg-'));
  chmodSync(root, 0o755);
  const { uid, gid } = postgresIds();
  chownSync(root, uid, gid);
  const data = join(root, 'data');
  const logFile = join(root, 'server.log');
  asPostgres([`${PG_BIN}/initdb`, '-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
  const options = `-p ${port} -k ${root} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const databaseUrl = (name: string) => `postgres://postgres@127.0.0.1:${port}/${name}`;
  const accepts = async () => {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1_000 });
    try {
      await client.connect();
      await client.query('SELECT 1');
      return true;
    } finally {
      await client.end().catch(() => undefined);
    }
  };
  let running = false;
  const start = async () => {
    asPostgres([`${PG_BIN}/pg_ctl`, '-D', data, '-l', logFile, '-o', options, '-w', '-t', '60', 'start']);
    running = true;
    await until(accepts, 30_000, `private postgres on ${port}`);
  };
  const stop = async () => {
    asPostgres([`${PG_BIN}/pg_ctl`, '-D', data, '-m', 'fast', '-w', '-t', '60', 'stop']);
    running = false;
    await Promise.resolve();
  };
  await start();
  return {
    port,
    url,
    databaseUrl,
    async createDatabase(name, template) {
      if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`bad database name ${name}`);
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      try {
        await admin.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
      } finally {
        await admin.end();
      }
      return databaseUrl(name);
    },
    stop,
    start,
    async close() {
      if (running) {
        try {
          asPostgres([`${PG_BIN}/pg_ctl`, '-D', data, '-m', 'immediate', '-w', '-t', '30', 'stop']);
        } catch {
          // Already down: nothing to stop.
        }
        running = false;
      }
      rmSync(root, { recursive: true, force: true });
    },
  };
}

function postgresIds(): { uid: number; gid: number } {
  const run = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
  const runG = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
  const uid = Number(run.stdout.trim());
  const gid = Number(runG.stdout.trim());
  if (!Number.isInteger(uid) || !Number.isInteger(gid) || run.status !== 0) throw new Error('no postgres OS user');
  return { uid, gid };
}

export interface PrivateRedis {
  port: number;
  url: string;
  /** `SHUTDOWN NOSAVE`, then waits for the process to exit: every connection drops, the port closes. */
  stop(): Promise<void>;
  /** A new redis-server on the same port (empty: it saves nothing); resolves once it answers PING. */
  start(): Promise<void>;
  close(): Promise<void>;
}

/** A redis-server of its own on 127.0.0.1:<free port>, no persistence. */
export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'gw-redis-'));
  const url = `redis://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();
  const ping = async () => {
    const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    client.on('error', () => undefined);
    try {
      await client.connect();
      return (await client.ping()) === 'PONG';
    } finally {
      client.disconnect();
    }
  };
  const start = async () => {
    const proc = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
      { stdio: 'ignore' },
    );
    child = proc;
    exited = new Promise((ok) => proc.once('exit', () => ok()));
    await until(ping, 15_000, `private redis on ${port}`);
  };
  const stop = async () => {
    const proc = child;
    if (!proc || proc.exitCode !== null) return;
    const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    client.on('error', () => undefined);
    try {
      await client.connect();
      await client.call('SHUTDOWN', 'NOSAVE').catch(() => undefined);
    } catch {
      proc.kill('SIGKILL');
    } finally {
      client.disconnect();
    }
    const timer = setTimeout(() => proc.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
    child = undefined;
  };
  await start();
  return {
    port,
    url,
    stop,
    start,
    async close() {
      if (child && child.exitCode === null) {
        child.kill('SIGKILL');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
