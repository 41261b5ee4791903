import { parentPort, workerData } from 'node:worker_threads';
import { createPGlite, type EngineOptions } from './pglite-engine.js';
import type { EngineReply, EngineRequest } from './pglite-thread.js';

/**
 * The embedded database's own thread: PGlite runs here, so the WASM Postgres executing batched log inserts and
 * management queries never holds the event loop that serves requests. Requests are answered in order.
 */
const port = parentPort!;
const db = await createPGlite(workerData as EngineOptions);

/** A database error as plain data: its message and the fields TypeORM and our error mapping read (code, detail…). */
function plainError(err: unknown): Record<string, unknown> {
  if (!(err instanceof Error)) return { message: String(err) };
  const fields: Record<string, unknown> = { message: err.message, name: err.name };
  for (const [key, value] of Object.entries(err)) {
    if (value === undefined || typeof value === 'function') continue;
    if (typeof value === 'object' && value !== null && key !== 'params') continue;
    fields[key] = value;
  }
  return fields;
}

port.on('message', (request: EngineRequest) => {
  const run = async (): Promise<EngineReply> => {
    try {
      switch (request.op) {
        case 'query':
          return { id: request.id, result: await db.query(request.sql, request.params) };
        case 'exec':
          return { id: request.id, results: await db.exec(request.sql) };
        case 'close':
          await db.close();
          return { id: request.id };
      }
    } catch (err) {
      return { id: request.id, error: plainError(err) };
    }
  };
  void run().then((reply) => port.postMessage(reply));
});
port.postMessage({ id: 0 } satisfies EngineReply);
