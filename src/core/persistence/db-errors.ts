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
