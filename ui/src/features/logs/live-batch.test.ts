import { describe, expect, it } from 'vitest';
import { LiveBatch } from './live-batch';

describe('LiveBatch', () => {
  it('is due at once when it holds a page, and gives its rows newest first', () => {
    const batch = new LiveBatch<number>();
    const due = [1, 2, 3].map((row) => batch.add(row, 3));
    expect(due).toEqual([false, false, true]);
    expect(batch.take()).toEqual([3, 2, 1]);
    expect(batch.take()).toEqual([]);
    expect(batch.add(4, 3)).toBe(false);
  });

  it('forgets its rows when cleared (another view)', () => {
    const batch = new LiveBatch<string>();
    batch.add('a', 50);
    batch.clear();
    expect(batch.take()).toEqual([]);
  });
});
