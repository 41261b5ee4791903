import { pino, type Bindings, type DestinationStream, type Logger } from 'pino';
import type { LogLevel } from '../config/gateway-config.js';
import { BoundedLogDestination, hasDroppedLogLines } from './bounded-destination.js';
import { serializeError } from './error-serializer.js';
import { redactLogFields } from './log-redaction.js';

const BASE = { service: 'ai-gateway' };

/** Standard output through a bounded, never-blocking buffer (see BoundedLogDestination). */
export function stdoutLogDestination(maxBufferedBytes?: number): BoundedLogDestination {
  return new BoundedLogDestination(process.stdout, maxBufferedBytes, BASE);
}

/**
 * The root logger. Without a destination it writes to stdout through a BoundedLogDestination: a reader that stalls
 * costs dropped (and counted) lines, never a blocked event loop.
 */
export function createLogger(level: LogLevel, destination: DestinationStream = stdoutLogDestination()): Logger {
  const logger = pino(
    {
      level,
      base: BASE,
      timestamp: pino.stdTimeFunctions.isoTime,
      // Redaction is configuration: a secret that reaches a log call by mistake still never reaches the output. A
      // record passes through it before it is written, its error after the error's serializer.
      serializers: { err: (err: unknown) => redactLogFields(serializeError(err)) },
      formatters: { level: (label) => ({ level: label }), log: (record) => redactRecord(record) },
    },
    destination,
  );
  // A child's bindings too. pino gives children no formatter of ours for them, but every descendant is created from
  // its parent's object, so it inherits this `child`.
  const makeChild: unknown = Reflect.get(logger, 'child');
  const redactedChild = function (this: Logger, bindings: Bindings, options?: unknown): Logger {
    return Reflect.apply(makeChild as (...args: unknown[]) => Logger, this, [redactLogFields(bindings), options]);
  };
  logger.child = redactedChild as unknown as Logger['child'];
  return logger;
}

/** Lines the logger's destination dropped because its reader was too slow (0 for destinations that never drop). */
export function droppedLogLines(logger: Logger): number {
  const stream: unknown = (logger as unknown as Record<symbol, unknown>)[pino.symbols.streamSym];
  return hasDroppedLogLines(stream) ? stream.droppedLines : 0;
}

/** Waits until the buffered log lines were written, at most `timeoutMs` (a reader that never reads must not hold us). */
export function flushLogs(logger: Logger, timeoutMs: number): Promise<void> {
  return new Promise((resolve) => {
    // Not unref'd: an exit code chosen by the caller must not turn into a natural exit 0 meanwhile.
    const timer = setTimeout(resolve, timeoutMs);
    try {
      logger.flush(() => {
        clearTimeout(timer);
        resolve();
      });
    } catch {
      clearTimeout(timer);
      resolve();
    }
  });
}

/** A record's fields redacted, its error left to the `err` serializer (redacted after it, whatever its type). */
function redactRecord(record: Record<string, unknown>): Record<string, unknown> {
  if (record.err === undefined) return redactLogFields(record) as Record<string, unknown>;
  const { err, ...fields } = record;
  const redacted = redactLogFields(fields);
  return redacted === fields ? record : { ...(redacted as Record<string, unknown>), err };
}
