import { pino, type DestinationStream, type Logger } from 'pino';
import type { LogLevel } from '../config/gateway-config.js';
import { BoundedLogDestination, hasDroppedLogLines } from './bounded-destination.js';
import { serializeError } from './error-serializer.js';

/** Field names whose values are secrets wherever they appear in a logged object. */
const SECRET_FIELDS = [
  'password',
  'admin_password',
  'client_secret',
  'client_id',
  'secret',
  'token',
  'api_key',
  'apiKey',
  'encryption_key',
  'setup_token',
  'authorization',
  'cookie',
  'value',
  'ciphertext',
  'client_key_pem',
  'private_key',
];

const SECRET_HEADERS = [
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-api-key',
  'x-goog-api-key',
  'x-gateway-vk',
  'x-gateway-setup-token',
];

/**
 * Redaction is configuration: every path below is censored by pino before a line is written, so a secret that
 * reaches a log call by mistake still never reaches the output.
 */
export const REDACT_PATHS: string[] = [
  ...SECRET_HEADERS.flatMap((h) => [`req.headers["${h}"]`, `res.headers["${h}"]`, `headers["${h}"]`]),
  ...SECRET_FIELDS.flatMap((f) => [f, `*.${f}`, `*.*.${f}`, `*.*.*.${f}`]),
];

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
  return pino(
    {
      level,
      base: BASE,
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: REDACT_PATHS, censor: '<REDACTED>' },
      serializers: { err: serializeError },
      formatters: { level: (label) => ({ level: label }) },
    },
    destination,
  );
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
