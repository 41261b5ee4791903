import { pbkdf2 } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { TimedOut, withTimeout } from '../../src/core/clock/with-timeout.js';

/** Blocks the event loop for `ms`, as a long GC pause or a starved CPU does. */
function stall(ms: number): void {
  const end = Date.now() + ms;
  while (Date.now() < end);
}

/** Real I/O on the thread pool: it completes while the loop is stalled, and its answer waits for the loop's poll. */
function threadPoolAnswer(): Promise<string> {
  return new Promise((resolve, reject) =>
    pbkdf2('secret', 'salt', 1, 16, 'sha256', (err, key) => (err ? reject(err) : resolve(key.toString('hex')))),
  );
}

describe('withTimeout', () => {
  it('an answer that arrived while the loop was stalled past the time wins over the timer', async () => {
    const answered = withTimeout(threadPoolAnswer(), 20, 'pbkdf2');
    stall(150);
    await expect(answered).resolves.toMatch(/^[0-9a-f]{32}$/);
  });

  it('no answer in time is a TimedOut naming the call and the time', async () => {
    const never = new Promise<never>(() => undefined);
    const started = Date.now();
    const err = await withTimeout(never, 30, 'the peer').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TimedOut);
    expect((err as Error).message).toBe('the peer got no answer in 30 ms');
    expect(Date.now() - started).toBeGreaterThanOrEqual(29);
  });

  it('passes a rejection on as it came, and an answer before the time as it is', async () => {
    const failure = new Error('refused');
    await expect(withTimeout(Promise.reject(failure), 1_000)).rejects.toBe(failure);
    await expect(withTimeout(Promise.resolve(7), 1_000)).resolves.toBe(7);
  });
});
