import type { ServerResponse } from 'node:http';
import { corruptFrame, type Reply, type StreamReply } from './family.js';
import type { StreamFaults } from './scenarios.js';

/** Timers the simulator owns (delays, chunk gaps), cleared on close so nothing fires into a closed server. */
export class Timers {
  private readonly pending = new Set<NodeJS.Timeout>();

  after(ms: number, fn: () => void): void {
    const t = setTimeout(() => {
      this.pending.delete(t);
      fn();
    }, ms);
    this.pending.add(t);
  }

  clear(): void {
    for (const t of this.pending) clearTimeout(t);
    this.pending.clear();
  }
}

/** One response being written: the socket, the status recorder and the drop switch. */
export interface Exchange {
  res: ServerResponse;
  timers: Timers;
  setStatus(status: number): void;
  /** Destroys the socket without finishing the response (a dropped connection, not a client abort). */
  drop(): void;
}

export function sendReply(x: Exchange, r: Reply): void {
  x.setStatus(r.status);
  x.res.writeHead(r.status, r.headers);
  x.res.end(r.body);
}

/** A unary answer under faults: the body is its one event (stall/drop after 1 send half of it). */
function writeUnary(x: Exchange, r: Reply, f: StreamFaults): void {
  let body = r.body;
  let headers = r.headers;
  if (f.malformedAt !== undefined) {
    body = corruptFrame(body);
    headers = { ...headers, 'content-length': String(Buffer.byteLength(body)) };
  }
  const cut = f.stallAfter ?? f.dropAfter;
  if (cut === undefined) return sendReply(x, { status: r.status, headers, body });
  x.setStatus(r.status);
  x.res.writeHead(r.status, headers);
  if (cut === 0) {
    x.res.flushHeaders();
    if (f.dropAfter !== undefined) x.drop();
    return;
  }
  const half = body.slice(0, Math.floor(body.length / 2));
  if (f.stallAfter !== undefined) x.res.write(half);
  else x.res.write(half, () => x.drop());
}

/**
 * Writes frames one by one: `chunkDelayMs` apart, a malformed frame at `malformedAt`, the in-stream error after
 * `errorAfter`, a stall or a drop after `stallAfter` / `dropAfter` frames (or at the end, when the stream is shorter).
 */
function writeStream(x: Exchange, s: StreamReply, f: StreamFaults): void {
  const { res } = x;
  x.setStatus(200);
  res.writeHead(200, s.headers);
  let i = 0;
  const next = (): void => {
    if (res.destroyed) return;
    while (i < s.frames.length) {
      if (i === f.stallAfter) {
        if (i === 0) res.flushHeaders();
        return;
      }
      if (i === f.errorAfter) {
        res.end(s.errorFrame);
        return;
      }
      const frame = i === f.malformedAt ? corruptFrame(s.frames[i]!) : s.frames[i]!;
      i += 1;
      if (i === f.dropAfter) {
        // Let the frame reach the socket before cutting it, so the client sees exactly `dropAfter` events.
        res.write(frame, () => x.drop());
        return;
      }
      res.write(frame);
      if (f.chunkDelayMs > 0 && i < s.frames.length) {
        x.timers.after(f.chunkDelayMs, next);
        return;
      }
    }
    if (f.stallAfter !== undefined) return;
    if (f.dropAfter !== undefined) return x.drop();
    if (f.errorAfter !== undefined) return void res.end(s.errorFrame);
    res.end();
  };
  next();
}

export function writeAnswer(x: Exchange, out: Reply | StreamReply, f: StreamFaults): void {
  if ((out as StreamReply).frames !== undefined) writeStream(x, out as StreamReply, f);
  else writeUnary(x, out as Reply, f);
}
