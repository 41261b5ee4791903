/**
 * Where a log export stands, as a token a user can pass back (`--cursor`): rows are read oldest first up to a fixed
 * end time, and the next page starts at the last row's timestamp (`start_time`, inclusive) skipping the `seen` rows
 * that share it (the API orders ties by id, so the skip is exact). Every page is then an index range scan, where an
 * offset would read every row before it.
 */
export interface LogCursor {
  /** The last exported row's timestamp; undefined before the first row. */
  after?: string;
  /** Rows already exported whose timestamp is `after`. */
  seen: number;
  /** The export's end: rows logged later are not part of it. */
  end: string;
  /** Rows exported so far. */
  written: number;
}

export function encodeCursor(cursor: LogCursor): string {
  return Buffer.from(JSON.stringify(cursor), 'utf8').toString('base64url');
}

export function decodeCursor(token: string): LogCursor {
  const cursor = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as LogCursor;
  if (typeof cursor.end !== 'string' || typeof cursor.seen !== 'number' || typeof cursor.written !== 'number') {
    throw new Error('not a cursor of gatewayctl logs export');
  }
  return cursor;
}

/** The cursor after `rows` (oldest first) were exported. */
export function advance(cursor: LogCursor, rows: ReadonlyArray<{ timestamp: string }>): LogCursor {
  let { after, seen } = cursor;
  for (const row of rows) {
    if (row.timestamp === after) seen += 1;
    else {
      after = row.timestamp;
      seen = 1;
    }
  }
  return { ...cursor, after, seen, written: cursor.written + rows.length };
}
