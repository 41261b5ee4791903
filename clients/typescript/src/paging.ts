/** One page of a list: its items and, when the list says so, how many match in all. */
export interface Page<T> {
  items: T[];
  total?: number;
}

/**
 * The items of a list, read lazily: `for await (const item of list)` asks for the next page only when the loop has
 * taken the previous one (limit/offset paging). `toArray()` reads them all.
 */
export class Paged<T> implements AsyncIterable<T> {
  constructor(private readonly pages: () => AsyncGenerator<Page<T>>) {}

  async *[Symbol.asyncIterator](): AsyncGenerator<T> {
    for await (const page of this.pages()) yield* page.items;
  }

  /** Every page as read, with the list's total when it gives one. */
  byPage(): AsyncGenerator<Page<T>> {
    return this.pages();
  }

  async toArray(): Promise<T[]> {
    const all: T[] = [];
    for await (const item of this) all.push(item);
    return all;
  }
}

/**
 * Limit/offset paging over `fetchPage` from `offset`: stops at a short page, an empty one, or the list's total.
 * Rows created or deleted while paging shift later pages (offset paging); the logs' exports use a time cursor instead.
 */
export function offsetPages<T>(
  fetchPage: (limit: number, offset: number) => Promise<Page<T>>,
  pageSize = 100,
  offset = 0,
): Paged<T> {
  return new Paged(async function* () {
    let at = offset;
    for (;;) {
      const page = await fetchPage(pageSize, at);
      yield page;
      at += page.items.length;
      if (page.items.length < pageSize || page.items.length === 0) return;
      if (page.total !== undefined && at >= page.total) return;
    }
  });
}

/** A list the API answers whole (no paging), as the same interface. */
export function singlePage<T>(fetchAll: () => Promise<T[]>): Paged<T> {
  return new Paged(async function* () {
    yield { items: await fetchAll() };
  });
}
