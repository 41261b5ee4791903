import { randomBytes } from 'node:crypto';
import { request as httpRequest, type ClientRequest } from 'node:http';
import { createScratchDatabase, deleteRedisPrefix, migratedAppDir } from './databases.js';
import { spawnGateway, type GatewayProcess } from './gateway-process.js';
import { HttpClient } from './http.js';
import { TEST_DATABASE_URL, TEST_REDIS_URL } from './test-env.js';

export interface SpawnedGateway {
  gw: GatewayProcess;
  port: number;
  http: HttpClient;
  appDir: string;
  /** The parsed "gateway listening" line. */
  listening: Record<string, unknown>;
}

/**
 * The environment of a spawned gateway in the suite's run mode: nothing extra on the embedded default, a scratch
 * database, a Redis prefix and a shared encryption key when DATABASE_URL and REDIS_URL are set.
 */
export async function runModeEnv(): Promise<{ env: Record<string, string>; cleanUp: () => Promise<void> }> {
  if (!TEST_DATABASE_URL || !TEST_REDIS_URL) return { env: {}, cleanUp: async () => undefined };
  const scratch = await createScratchDatabase(TEST_DATABASE_URL);
  const prefix = `gwt-${randomBytes(5).toString('hex')}`;
  return {
    env: {
      DATABASE_URL: scratch.url,
      REDIS_URL: TEST_REDIS_URL,
      GATEWAY_REDIS_PREFIX: prefix,
      GATEWAY_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    },
    cleanUp: async () => {
      await scratch.drop();
      await deleteRedisPrefix(TEST_REDIS_URL!, prefix);
    },
  };
}

/**
 * Spawns `node [nodeArgs] dist/src/main.js --port 0` and waits for its listening line; the bound port is read from that
 * line. Without `appDir` the process gets a new one holding the run's migrated embedded database (not a first start).
 */
export async function startSpawned(
  env: Record<string, string>,
  options: { args?: string[]; appDir?: string; cwd?: string; nodeArgs?: string[]; mainJs?: string } = {},
): Promise<SpawnedGateway> {
  const appDir = options.appDir ?? migratedAppDir(env);
  const gw = spawnGateway(
    ['--port', '0', '--app-dir', appDir, ...(options.args ?? [])],
    env,
    options.cwd,
    options.nodeArgs,
    options.mainJs,
  );
  let line: string;
  try {
    line = await gw.waitForLine(/gateway listening/, 60_000);
  } catch (e) {
    // A gateway that did not come up in time is not left running behind the failed suite.
    gw.child.kill('SIGKILL');
    throw e;
  }
  const listening = JSON.parse(line) as Record<string, unknown>;
  const port = Number(listening.port);
  return { gw, port, http: new HttpClient(`http://127.0.0.1:${port}`), appDir, listening };
}

/**
 * A request held in flight: headers and half of a JSON body are sent, the rest only when `finish()` is called. The
 * server has admitted the request (its onRequest hooks ran) and waits for the body.
 */
export function heldRequest(
  port: number,
  path: string,
  payload: unknown,
): { req: ClientRequest; finish: () => void; answered: Promise<{ status: number; body: string }> } {
  const body = JSON.stringify(payload);
  let req!: ClientRequest;
  const answered = new Promise<{ status: number; body: string }>((ok, fail) => {
    req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        res.on('end', () => ok({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', fail);
  });
  req.write(body.slice(0, 10));
  return { req, finish: () => req.end(body.slice(10)), answered };
}
