interface DriverError {
  code?: string;
  constraint?: string;
  driverError?: { code?: string; constraint?: string };
}

/** A Postgres unique violation (23505) on the named constraint (or index). */
export function isUniqueViolation(error: unknown, constraint: string): boolean {
  const e = error as DriverError;
  const code = e.driverError?.code ?? e.code;
  const name = e.driverError?.constraint ?? e.constraint;
  return code === '23505' && (name === undefined || name === constraint);
}

/** A Postgres foreign key violation (23503): the referenced row vanished between a check and the write. */
export function isForeignKeyViolation(error: unknown): boolean {
  const e = error as DriverError;
  return (e.driverError?.code ?? e.code) === '23503';
}

/** SQLSTATEs of a database that cannot serve now: class 08 (connection), 57P01-57P03 (shutting down, starting up), 53300. */
const UNAVAILABLE_SQLSTATE = /^(08[0-9A-Z]{3}|57P0[123]|53300)$/;
/** Node's codes for a connection that could not be made (refused, unreachable, no such host). */
const CONNECT_ERRNO = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);
/** node-postgres' own messages for a connection lost or never obtained (pool `connectionTimeoutMillis`). */
const PG_CONNECTION_MESSAGE =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error)/;

/**
 * The database is down or unreachable, as opposed to refusing a statement: the server said so (SQLSTATE above), the
 * pool could not connect (a refused or unreachable port, the pool's connect timeout) or the connection dropped under
 * a query. Such a failure is worth a retry later (503), not a bug (500).
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const e = error as DriverError & { message?: unknown; syscall?: unknown; driverError?: { message?: unknown } };
  const code = e.driverError?.code ?? e.code;
  if (typeof code === 'string' && UNAVAILABLE_SQLSTATE.test(code)) return true;
  if (typeof code === 'string' && CONNECT_ERRNO.has(code) && (e.syscall === 'connect' || e.syscall === 'getaddrinfo'))
    return true;
  const message = typeof e.driverError?.message === 'string' ? e.driverError.message : e.message;
  return typeof message === 'string' && PG_CONNECTION_MESSAGE.test(message);
}
