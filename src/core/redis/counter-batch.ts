import type { Redis } from 'ioredis';
import type { Clock } from '../clock/clock.js';
import { COUNTER_BATCH_SCRIPT } from './counter-scripts.js';
import type { WindowLayout } from './counter-window.js';

/** Most calls in one script run: bounds one run's time, far below Lua's argument limits per counter. */
const MAX_BATCH_CALLS = 256;

/** How a call puts itself into a batch: counters and records become indexes, the call one array of the script's. */
export interface CounterBatchWriter {
  /** The 1-based index of the counter with these meta, hits and held keys (added on its first use in the batch). */
  counter(keys: readonly [string, string, string], layout: WindowLayout): number;
  /** The 1-based index of a reservation record key among the batch's records. */
  record(key: string): number;
  /** Where a long text (a reservation record) is in ARGV: sent as it is, not escaped inside the batch's JSON. */
  text(value: string): number;
  add(call: unknown[]): void;
}

/** Writes a call at the batch's instant `now`; returns how its answer is read. */
export type CounterBatchCall<T> = (writer: CounterBatchWriter, now: number) => (answer: unknown) => T;

interface QueuedCall {
  write: CounterBatchCall<unknown>;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

/**
 * Sends counter calls to Redis as one script run per batch (`counter-scripts.ts`, BATCH). While a run is in flight,
 * new calls wait and go together in the next one, so a counter that many concurrent requests touch (a team's budget)
 * is read and written once per run instead of once per call; with nothing in flight a call goes at once (no timer,
 * no added wait when idle). Each call keeps its own answer; a failed run fails every call in it.
 */
export class CounterBatcher {
  private queue: QueuedCall[] = [];
  private sending = false;

  constructor(
    private readonly redis: Redis,
    private readonly clock: Clock,
  ) {}

  run<T>(write: CounterBatchCall<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ write, resolve: resolve as (value: unknown) => void, reject });
      if (this.sending) return;
      this.sending = true;
      // The calls made in the same tick as this one join it.
      queueMicrotask(() => void this.drain());
    });
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.length > 0) await this.send(this.queue.splice(0, MAX_BATCH_CALLS));
    } finally {
      // Never left set: a batcher that believes a run is in flight would hold every later call.
      this.sending = false;
    }
  }

  private async send(calls: QueuedCall[]): Promise<void> {
    const now = this.clock.now();
    const counterIndexes = new Map<string, number>();
    const counterKeys: string[] = [];
    const layouts: WindowLayout[] = [];
    const recordKeys: string[] = [];
    const texts: string[] = [];
    const batch: { layouts: WindowLayout[]; calls: unknown[][] } = { layouts, calls: [] };
    const writer: CounterBatchWriter = {
      counter(keys, layout) {
        let index = counterIndexes.get(keys[0]);
        if (index === undefined) {
          counterKeys.push(...keys);
          layouts.push(layout);
          index = layouts.length;
          counterIndexes.set(keys[0], index);
        }
        return index;
      },
      record(key) {
        recordKeys.push(key);
        return recordKeys.length;
      },
      text(value) {
        texts.push(value);
        // ARGV[1] is now, ARGV[2] the batch.
        return texts.length + 2;
      },
      add(call) {
        batch.calls.push(call);
      },
    };
    // A call that cannot write itself fails alone; the others go.
    const sent: Array<{ call: QueuedCall; read: (answer: unknown) => unknown }> = [];
    for (const call of calls) {
      const before = batch.calls.length;
      try {
        const read = call.write(writer, now);
        if (batch.calls.length !== before + 1) throw new Error('a counter call adds exactly one call to its batch');
        sent.push({ call, read });
      } catch (err) {
        batch.calls.length = before;
        call.reject(err);
      }
    }
    if (sent.length === 0) return;
    let answers: unknown[];
    try {
      const keys = [...counterKeys, ...recordKeys];
      answers = (await COUNTER_BATCH_SCRIPT.run(this.redis, keys, [now, JSON.stringify(batch), ...texts])) as unknown[];
    } catch (err) {
      for (const { call } of sent) call.reject(err);
      return;
    }
    sent.forEach(({ call, read }, i) => {
      try {
        call.resolve(read(answers[i]));
      } catch (err) {
        call.reject(err);
      }
    });
  }
}
