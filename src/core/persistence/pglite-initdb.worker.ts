import { workerData } from 'node:worker_threads';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';

/**
 * Creates a fresh embedded database (initdb) and exits. Run in a worker thread: initdb grows PGlite's WASM memory to
 * ~600 MB, which WebAssembly never gives back, and a worker's memory goes with the worker.
 */
const options = workerData as PGliteOptions;
await (await PGlite.create(options)).close();
