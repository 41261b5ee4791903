import { pino } from 'pino';

/** Echoed input in an error message is cut here: a log line is no place for a 100 KB payload. */
const MAX_MESSAGE_CHARS = 500;

/** What a database error may log: the SQLSTATE and the names of what it concerns, never values. */
const DATABASE_FIELDS = ['code', 'constraint', 'table', 'column', 'schema', 'routine', 'severity'] as const;

type ErrorLike = Error & Record<string, unknown>;

/** A driver error (pg, PGlite) or TypeORM's QueryFailedError around one. */
function isDatabaseError(err: ErrorLike): boolean {
  return (
    'driverError' in err ||
    'parameters' in err ||
    'query' in err ||
    (typeof err.code === 'string' && /^[0-9A-Z]{5}$/.test(err.code) && 'severity' in err)
  );
}

function cut(text: string): string {
  return text.length > MAX_MESSAGE_CHARS ? `${text.slice(0, MAX_MESSAGE_CHARS)}…[truncated]` : text;
}

/**
 * Postgres messages put values after a colon (`invalid input syntax for type uuid: "…"`, `… for encoding "UTF8":
 * 0x00`) and names in quotes before it (`unique constraint "uq_users_email"`): the part before the first colon says
 * what failed without saying with what.
 */
function databaseMessage(message: string): string {
  const colon = message.indexOf(': ');
  return colon === -1 ? cut(message) : `${message.slice(0, colon)}: <value omitted>`;
}

function serializeDatabaseError(err: ErrorLike): Record<string, unknown> {
  const driver = (err.driverError && typeof err.driverError === 'object' ? err.driverError : err) as ErrorLike;
  const out: Record<string, unknown> = { type: err.constructor?.name ?? 'Error' };
  for (const field of DATABASE_FIELDS) {
    const value = driver[field] ?? err[field];
    if (typeof value === 'string' && value) out[field] = value;
  }
  const message = databaseMessage(String(driver.message ?? err.message ?? ''));
  out.message = message;
  // The stack's first line repeats the message: replace it, keep the frames.
  if (typeof err.stack === 'string')
    out.stack = [`${String(out.type)}: ${message}`, ...err.stack.split('\n').slice(1)].join('\n');
  return out;
}

/**
 * The `err` serializer of every logger. A database error logs its code, constraint and table, never its SQL
 * parameters (password hashes, key hashes, e-mails, payloads), its query or its detail line (which quotes the
 * conflicting values); any other error logs as pino's standard serializer does, with its message cut.
 */
export function serializeError(err: unknown): unknown {
  if (!(err instanceof Error)) return err;
  const e = err as ErrorLike;
  if (isDatabaseError(e)) return serializeDatabaseError(e);
  const out = pino.stdSerializers.err(err) as unknown as Record<string, unknown>;
  if (typeof out.message === 'string') out.message = cut(out.message);
  for (const field of ['parameters', 'query', 'detail', 'body', 'payload']) delete out[field];
  if (e.cause instanceof Error) out.cause = serializeError(e.cause);
  return out;
}
