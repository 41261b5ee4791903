import { Worker } from 'node:worker_threads';
import type { Results } from '@electric-sql/pglite';
import type { EngineOptions, PGliteEngine } from './pglite-engine.js';

export type EngineRequest =
  | { id: number; op: 'query'; sql: string; params: unknown[] }
  | { id: number; op: 'exec'; sql: string }
  | { id: number; op: 'close' };

export interface EngineReply {
  id: number;
  result?: Results;
  results?: Results[];
  error?: Record<string, unknown>;
}

/** An Error carrying a database error's fields (code, detail, …) as the driver's own would. */
function databaseError(fields: Record<string, unknown>): Error {
  const err = new Error(typeof fields.message === 'string' ? fields.message : 'database error');
  for (const [key, value] of Object.entries(fields)) {
    if (key !== 'message' && key !== 'stack') (err as unknown as Record<string, unknown>)[key] = value;
  }
  return err;
}

/**
 * PGlite in a worker thread, behind the same three calls as an instance in this thread. Rows, dates and parsed JSON
 * cross by structured clone. The pool's end() stops the thread.
 */
export class PGliteThread implements PGliteEngine {
  private readonly pending = new Map<number, { resolve: (reply: EngineReply) => void; reject: (err: Error) => void }>();
  private nextId = 1;
  private failure: Error | undefined;

  private constructor(private readonly worker: Worker) {
    worker.on('message', (reply: EngineReply) => {
      const waiter = this.pending.get(reply.id);
      if (!waiter) return;
      this.pending.delete(reply.id);
      waiter.resolve(reply);
    });
    const fail = (err: Error) => {
      this.failure = err;
      for (const waiter of this.pending.values()) waiter.reject(err);
      this.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the embedded database's thread exited (${code})`)));
  }

  /** Starts the worker and resolves once its database is open. */
  static start(file: URL, options: EngineOptions): Promise<PGliteThread> {
    return new Promise((resolve, reject) => {
      const worker = new Worker(file, { workerData: options });
      const onError = (err: Error) => reject(err);
      const onExit = (code: number) => reject(new Error(`the embedded database's thread exited (${code}) at start`));
      worker.once('error', onError);
      worker.once('exit', onExit);
      worker.once('message', () => {
        worker.off('error', onError);
        worker.off('exit', onExit);
        resolve(new PGliteThread(worker));
      });
    });
  }

  async query(sql: string, params: unknown[]): Promise<Results> {
    return (await this.call({ id: 0, op: 'query', sql, params })).result!;
  }

  async exec(sql: string): Promise<Results[]> {
    return (await this.call({ id: 0, op: 'exec', sql })).results!;
  }

  async close(): Promise<void> {
    if (this.failure) return;
    await this.call({ id: 0, op: 'close' });
    await this.worker.terminate();
  }

  private call(request: EngineRequest): Promise<EngineReply> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise<EngineReply>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ ...request, id });
    }).then((reply) => {
      if (reply.error) throw databaseError(reply.error);
      return reply;
    });
  }
}
