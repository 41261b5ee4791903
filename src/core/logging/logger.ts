import { pino, type DestinationStream, type Logger } from 'pino';
import type { LogLevel } from '../config/gateway-config.js';
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

export function createLogger(level: LogLevel, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'ai-gateway' },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: REDACT_PATHS, censor: '<REDACTED>' },
      serializers: { err: serializeError },
      formatters: { level: (label) => ({ level: label }) },
    },
    destination,
  );
}
