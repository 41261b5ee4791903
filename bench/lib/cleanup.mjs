// One place that undoes what a bench started (child processes, temp dirs, scratch databases, Redis keys), run once
// on normal end, on error, on SIGINT/SIGTERM/SIGHUP and when the watchdog fires. Cleanups run newest first.
const cleanups = [];
let running;
let stopping = false;

/** True once the bench is bailing out (signal, error, watchdog): load loops stop early. */
export const isStopping = () => stopping;

class Stopped extends Error {}
/** Throws (quietly: runBench does not report it) when the bench is bailing out, so no partial result is printed. */
export function throwIfStopping() {
  if (stopping) throw new Stopped('stopped');
}

/**
 * Registers `fn` (sync or async); returns a function that runs it now (at most once), unregisters it and resolves
 * with its result.
 */
export function onCleanup(fn) {
  const entry = { fn };
  cleanups.push(entry);
  let result;
  return () => {
    const i = cleanups.indexOf(entry);
    if (i >= 0) {
      cleanups.splice(i, 1);
      result = Promise.resolve().then(entry.fn);
    }
    return result ?? Promise.resolve();
  };
}

/** Runs every registered cleanup (each at most once, errors reported, never thrown). */
export function cleanupAll() {
  running ??= (async () => {
    while (cleanups.length) {
      const { fn } = cleanups.pop();
      try {
        await fn();
      } catch (err) {
        console.error(`cleanup failed: ${err?.message ?? err}`);
      }
    }
    running = undefined;
  })();
  return running;
}

let installed = false;
/**
 * Installs signal/error handlers and a watchdog: after `maxSeconds` the bench cleans up and exits 2, so nothing it
 * started outlives it even when a request or the gateway hangs.
 */
export function installCleanupHandlers(maxSeconds) {
  if (installed) return;
  installed = true;
  const bail = (code, why) => {
    stopping = true;
    if (why) console.error(why);
    void cleanupAll().finally(() => process.exit(code));
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'])
    process.once(signal, () => bail(130, `\n${signal}: cleaning up`));
  process.on('uncaughtException', (err) => bail(1, err?.stack ?? String(err)));
  process.on('unhandledRejection', (err) => bail(1, err?.stack ?? String(err)));
  if (maxSeconds) {
    const timer = setTimeout(
      () => bail(2, `watchdog: bench still running after ${maxSeconds} s, giving up`),
      maxSeconds * 1000,
    );
    timer.unref();
  }
}

/**
 * Runs `main` with the handlers installed, always cleaning up afterwards; sets the exit code (1 on error) and
 * exits explicitly so a stray handle cannot keep the process alive.
 */
export async function runBench(main, { maxSeconds } = {}) {
  installCleanupHandlers(maxSeconds);
  let code = 0;
  try {
    await main();
  } catch (err) {
    // Bailing out (signal, watchdog): whatever main threw is a consequence; bail() cleans up and exits with its code.
    if (stopping) await new Promise(() => {});
    console.error(err?.stack ?? String(err));
    code = 1;
  } finally {
    await cleanupAll();
  }
  process.exit(code);
}
