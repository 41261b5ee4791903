import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BoundedLogDestination } from '../../src/core/logging/bounded-destination.js';
import { createLogger, droppedLogLines, flushLogs } from '../../src/core/logging/logger.js';
import { freePort, MAIN_JS } from '../helpers/gateway-process.js';
import { runModeEnv } from '../helpers/spawned-gateway.js';
import { RUN_MODE } from '../helpers/test-env.js';
import { LogCapture } from '../helpers/log-capture.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { migratedAppDir } from '../helpers/databases.js';

describe('structured logs', () => {
  it('censors secret-bearing fields and auth headers by configuration', () => {
    const capture = new LogCapture();
    const logger = createLogger('info', capture);
    logger.info(
      {
        req: {
          headers: {
            authorization: 'Bearer sk-gw-leaked',
            'x-api-key': 'sk-gw-leaked-2',
            cookie: 'gateway_session=abc',
          },
        },
        body: { password: 'hunter2', oauth: { client_secret: 'shh' } },
        secret: { type: 'plain_text', value: 'plain-secret' },
      },
      'a request',
    );
    const text = capture.text();
    for (const leaked of ['sk-gw-leaked', 'gateway_session=abc', 'hunter2', 'shh', 'plain-secret'])
      expect(text).not.toContain(leaked);
    const record = capture.records()[0]!;
    expect(record).toMatchObject({ level: 'info', msg: 'a request', service: 'ai-gateway' });
    expect((record.req as any).headers.authorization).toBe('<REDACTED>');
    expect((record.body as any).oauth.client_secret).toBe('<REDACTED>');
  });

  describe('through HTTP', () => {
    let gw: TestApp;
    beforeAll(async () => {
      gw = await startTestApp();
    });
    afterAll(() => gw?.close());

    it('never writes credentials presented in headers', async () => {
      await gw.http.get('/api/version', {
        headers: {
          authorization: 'Bearer sk-gw-presented-secret-value',
          'x-gateway-setup-token': 'setup-secret-presented',
        },
      });
      await gw.http.get('/nope', { headers: { 'x-api-key': 'sk-gw-another-secret' } });
      const text = gw.logs.text();
      expect(text).toContain('request completed');
      for (const leaked of ['sk-gw-presented-secret-value', 'setup-secret-presented', 'sk-gw-another-secret']) {
        expect(text).not.toContain(leaked);
      }
    });
  });
});

/** A stdout whose reader is stalled until `release()`: writes complete only then. */
class StalledReader extends Writable {
  readonly received: string[] = [];
  private held: Array<() => void> = [];
  private stalled = true;

  constructor() {
    super({ highWaterMark: 1024 });
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: () => void): void {
    this.received.push(chunk.toString('utf8'));
    if (this.stalled) this.held.push(callback);
    else callback();
  }

  release(): void {
    this.stalled = false;
    for (const callback of this.held.splice(0)) callback();
  }

  records(): Array<Record<string, unknown>> {
    return this.received
      .join('')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  }
}

describe('a log reader that stalls', () => {
  it('drops and counts lines beyond the buffer, with one warning when dropping starts and one when it ends', async () => {
    const reader = new StalledReader();
    const logger = createLogger('info', new BoundedLogDestination(reader, 16 * 1024, { service: 'ai-gateway' }));
    const started = performance.now();
    for (let i = 0; i < 2000; i++) logger.info({ i, pad: 'x'.repeat(200) }, 'busy');
    // Nothing waited for the reader.
    expect(performance.now() - started).toBeLessThan(2000);
    const dropped = droppedLogLines(logger);
    expect(dropped).toBeGreaterThan(1500);
    reader.release();
    await flushLogs(logger, 1000);
    const records = reader.records();
    expect(records.filter((r) => r.msg === 'busy').length).toBe(2000 - dropped);
    const startNotices = records.filter((r) => String(r.msg).startsWith('log output is not being read'));
    expect(startNotices).toHaveLength(1);
    expect(startNotices[0]).toMatchObject({ level: 'warn', service: 'ai-gateway' });
    const endNotices = records.filter((r) => String(r.msg).startsWith('log output caught up'));
    expect(endNotices).toEqual([expect.objectContaining({ level: 'warn', dropped_lines: dropped })]);
    logger.info('after');
    // Lines of one event-loop turn go out together when it ends.
    expect(reader.records().at(-1)).not.toMatchObject({ msg: 'after' });
    await new Promise((resolve) => setImmediate(resolve));
    expect(reader.records().at(-1)).toMatchObject({ msg: 'after' });
    expect(droppedLogLines(logger)).toBe(dropped);
  });

  it('flushLogs gives up after its timeout when the reader never reads', async () => {
    const reader = new StalledReader();
    const logger = createLogger('info', new BoundedLogDestination(reader, 16 * 1024));
    logger.info('waiting forever');
    const started = Date.now();
    await flushLogs(logger, 300);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(Date.now() - started).toBeLessThan(2000);
  });
});

describe.skipIf(!existsSync(MAIN_JS))(`the gateway with stdout and stderr pipes nobody reads (${RUN_MODE})`, () => {
  let env: Record<string, string>;
  let cleanUp: () => Promise<void>;
  beforeAll(async () => {
    ({ env, cleanUp } = await runModeEnv());
  });
  afterAll(() => cleanUp?.());

  it('keeps answering requests, counts the dropped lines, and exits 0 promptly on SIGTERM', async () => {
    const port = await freePort();
    const setup = { 'X-Gateway-Setup-Token': 'log-pipe-setup-token-123456' };
    const child = spawn(
      process.execPath,
      [MAIN_JS, '--port', String(port), '--app-dir', migratedAppDir(env, 'gw-logpipe-'), '--log-level', 'debug'],
      {
        env: {
          PATH: process.env.PATH ?? '',
          ...env,
          GATEWAY_SETUP_TOKEN: setup['X-Gateway-Setup-Token'],
          GATEWAY_LOG_MAX_BUFFERED_BYTES: String(64 * 1024),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    // Never read: stop the parent side too, so the pipes fill (the kernel buffer, then the child's own).
    child.stdout.pause();
    child.stderr.pause();
    const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((ok) =>
      child.on('exit', (code, signal) => ok({ code, signal })),
    );
    try {
      const base = `http://127.0.0.1:${port}`;
      const deadline = Date.now() + 60_000;
      for (;;) {
        const up = await fetch(`${base}/health`).then(
          (r) => r.status === 200,
          () => false,
        );
        if (up) break;
        if (Date.now() > deadline || child.exitCode !== null) throw new Error('the gateway did not start');
        await new Promise((r) => setTimeout(r, 250));
      }
      // Long unmatched paths make long access-log lines: the 64 KiB pipe and the 64 KiB log buffer fill quickly.
      const long = 'p'.repeat(4000);
      const statuses: number[] = [];
      let dropped = 0;
      for (let round = 0; round < 40 && dropped === 0; round++) {
        const batch = await Promise.all(
          Array.from({ length: 25 }, (_, i) =>
            fetch(`${base}/not-a-route/${round}-${i}/${long}`, { signal: AbortSignal.timeout(5_000) }).then(
              (r) => r.status,
            ),
          ),
        );
        statuses.push(...batch);
        const metrics = await fetch(`${base}/metrics`, { headers: setup, signal: AbortSignal.timeout(5_000) });
        expect(metrics.status).toBe(200);
        const line = (await metrics.text()).split('\n').find((l) => l.startsWith('gateway_log_lines_dropped_total '));
        dropped = Number(line?.split(' ')[1] ?? 0);
      }
      expect(statuses.every((s) => s === 404)).toBe(true);
      expect(dropped).toBeGreaterThan(0);
      // Still serving after the drops.
      expect((await fetch(`${base}/health`, { signal: AbortSignal.timeout(5_000) })).status).toBe(200);

      const signalled = Date.now();
      child.kill('SIGTERM');
      const result = await Promise.race([
        exit,
        new Promise<'timeout'>((ok) => setTimeout(() => ok('timeout'), 15_000)),
      ]);
      expect(result).toEqual({ code: 0, signal: null });
      expect(Date.now() - signalled).toBeLessThan(10_000);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});
