/**
 * Rows pushed live wait here to go on screen together: a busy gateway logs hundreds a second, and one render per row
 * would keep the main thread busy. The page flushes a batch on a timer, and at once when it holds a whole page: rows
 * pushed past the page's end in one flush would never be seen.
 */
export class LiveBatch<Row> {
  private rows: Row[] = [];

  /** Adds a row (they arrive oldest first); true when the batch now holds `pageSize` rows and is due at once. */
  add(row: Row, pageSize: number): boolean {
    this.rows.push(row);
    return this.rows.length >= pageSize;
  }

  /** The waiting rows, newest first; the batch is empty after. */
  take(): Row[] {
    const rows = this.rows.reverse();
    this.rows = [];
    return rows;
  }

  clear(): void {
    this.rows = [];
  }
}
