import type { Writable } from 'node:stream';

/** Bytes of log lines held for a slow reader before new lines are dropped. */
export const DEFAULT_MAX_BUFFERED_BYTES = 4 * 1024 * 1024;

/** What a destination that may drop lines reports (read by the metrics service at scrape time). */
export interface DroppedLogLines {
  readonly droppedLines: number;
}

export function hasDroppedLogLines(stream: unknown): stream is DroppedLogLines {
  return typeof (stream as { droppedLines?: unknown } | null)?.droppedLines === 'number';
}

/** A batch larger than this is sent at once rather than at the end of the turn. */
const MAX_BATCH_CHARS = 64 * 1024;

/** Destinations holding lines not yet handed to their stream; sent on exit (stdout writes are synchronous there). */
const unsentBatches = new Set<BoundedLogDestination>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const destination of [...unsentBatches]) destination.sendBatch();
  });
}

function countLines(text: string): number {
  let lines = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) lines++;
  return lines;
}

/**
 * A pino destination that never blocks the event loop. Lines go to a Node stream (stdout: for a pipe an
 * asynchronous libuv write, so a full pipe queues instead of blocking); while more than `maxBufferedBytes` wait for
 * the reader, new lines are dropped and counted, with one warning line when dropping starts and one when it ends.
 *
 * Why not pino's own destinations: `pino.destination()` (sonic-boom) writes with `fs.writeSync` and, on EAGAIN from a
 * full non-blocking pipe, sleeps in `Atomics.wait` and retries forever, freezing the process (requests, timers,
 * SIGTERM). With `sync: false` the writes are asynchronous, but pino flushes it with `flushSync()` on exit, the same
 * sleep-and-retry loop, so a process whose reader stalled never exits.
 */
export class BoundedLogDestination implements DroppedLogLines {
  private dropped = 0;
  private droppedInEpisode = 0;
  private broken = false;
  /** Lines handed to the stream whose write has not completed yet, and who waits for none to be left. */
  private pending = 0;
  private flushWaiters: Array<() => void> = [];
  /**
   * Lines written during this turn of the event loop, sent together when it ends: one write (a system call for stdout
   * on a file or pipe) per turn instead of one per line, which is one per request with the access log on.
   */
  private batch = '';
  private readonly written = () => {
    this.pending -= 1;
    if (this.pending === 0 && this.flushWaiters.length) for (const done of this.flushWaiters.splice(0)) done();
  };

  constructor(
    private readonly out: Writable,
    private readonly maxBufferedBytes = DEFAULT_MAX_BUFFERED_BYTES,
    private readonly base: Record<string, unknown> = {},
  ) {
    // A reader that went away (EPIPE) must not crash the gateway: from then on every line counts as dropped.
    out.on('error', () => {
      this.broken = true;
      for (const done of this.flushWaiters.splice(0)) done();
    });
    out.on('drain', () => this.endEpisode());
    installExitHook();
  }

  get droppedLines(): number {
    return this.dropped;
  }

  write(line: string): void {
    if (this.broken || this.out.writableLength + this.batch.length + line.length > this.maxBufferedBytes) {
      this.dropped += 1;
      if (this.droppedInEpisode++ === 0 && !this.broken) {
        // Written past the bound on purpose: one short line, once per episode.
        this.notice('log output is not being read fast enough: dropping log lines until it catches up', {});
      }
      return;
    }
    this.endEpisode();
    if (this.batch.length === 0) {
      setImmediate(this.sendBatch);
      unsentBatches.add(this);
    }
    this.batch += line;
    if (this.batch.length >= MAX_BATCH_CHARS) this.sendBatch();
  }

  /** Calls back once what is buffered has been handed to the reader (pino's `logger.flush(cb)`). */
  flush(callback: (err?: Error) => void): void {
    this.sendBatch();
    if (this.broken || this.pending === 0) {
      callback();
      return;
    }
    this.flushWaiters.push(() => callback());
  }

  /** Hands the lines written since the last batch to the stream in one write. */
  readonly sendBatch = (): void => {
    unsentBatches.delete(this);
    if (this.batch.length === 0) return;
    const batch = this.batch;
    this.batch = '';
    if (this.broken) {
      this.dropped += countLines(batch);
      return;
    }
    this.pending += 1;
    this.out.write(batch, this.written);
  };

  private endEpisode(): void {
    if (this.droppedInEpisode === 0 || this.broken) return;
    if (this.out.writableLength > this.maxBufferedBytes / 2) return;
    const count = this.droppedInEpisode;
    this.droppedInEpisode = 0;
    this.notice('log output caught up: log lines were dropped', { dropped_lines: count });
  }

  /** A line in the logger's own JSON shape, written by the destination itself (the logger would drop it). */
  private notice(msg: string, fields: Record<string, unknown>): void {
    const record = { level: 'warn', time: new Date().toISOString(), ...this.base, ...fields, msg };
    this.sendBatch();
    this.out.write(`${JSON.stringify(record)}\n`);
  }
}
