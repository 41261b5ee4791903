import type { DataSource } from 'typeorm';

/** How a text column is sampled: `text` is SQL giving each row's searched text, lowercased. */
export interface TrigramSampleOptions {
  table: string;
  text: string;
  /** Rows kept (default 2,000: a trigram in 0.05 % of rows shows up about once). */
  rows?: number;
  /** How long a sample stands before the next search takes a new one (default 10 minutes). */
  maxAgeMs?: number;
}

/** Per candidate row, what rechecking it costs against decoding one posting-list entry (measured, docs/mcp.md). */
const RECHECK_WEIGHT = 500;
/** Narrowing is used only when the estimate says it costs at most this share of searching the whole term. */
const WORTHWHILE = 0.5;
/** Longest substring tried, and how many distinct trigrams of one term are looked up at most. */
const MAX_SUBSTRING = 12;
const MAX_TRIGRAMS = 32;
/** Lookups cached per sample before the cache is emptied. */
const MAX_CACHED = 10_000;

/** What a sample says about searching for a term. */
export interface SampledSearch {
  /** The substring of the term whose trigrams to hand the index, when narrowing pays (always a substring as given). */
  indexTerm?: string;
  /**
   * How many of the table's rows the index is estimated to hand back as candidates (sampled holders of every trigram
   * it gets, scaled to the table; the whole table when the term has no trigram or too many).
   */
  candidates: number;
}

/** Runs of ASCII letters and digits: what `pg_trgm` makes trigrams of, and lowercases the same in every locale. */
const WORD_RUN = /[A-Za-z0-9]{3,}/g;

/**
 * Which trigrams of a column's text are common, from a sample of its rows, so a substring search can give the
 * trigram index only the rare part of its term. A GIN bitmap for `%topic040%` decodes the posting lists of every
 * trigram: `top`, `opi`, `pic` are in every row of a log where each query names a topic, and decoding them is most
 * of the search (21–32 ms of 31–46 over a million rows), while `%c040%` finds the same 4,838 candidates in 2 ms.
 * The whole term is still checked on each candidate, so the sample only ever changes the speed, never the rows.
 *
 * The sample is taken off the request that finds it stale (never awaited by one); until the first is in, searches
 * use their whole term. Each process keeps its own.
 */
export class TrigramSample {
  private texts: string[] = [];
  /** The table's rows when the sample was taken (the planner's estimate; Infinity when unknown and not small). */
  private tableRows = 0;
  private takenAt = Number.NEGATIVE_INFINITY;
  private taking: Promise<void> | undefined;
  /** Per trigram, which sampled rows hold it (a bitset over `texts`). */
  private readonly holders = new Map<string, Uint32Array>();
  /** Per term, what `search` found (a dashboard pages through one search: each page asks again). */
  private readonly chosen = new Map<string, SampledSearch>();
  private readonly rows: number;
  private readonly maxAgeMs: number;

  constructor(
    private readonly db: DataSource,
    private readonly options: TrigramSampleOptions,
    private readonly now: () => number = Date.now,
  ) {
    this.rows = options.rows ?? 2000;
    this.maxAgeMs = options.maxAgeMs ?? 10 * 60_000;
  }

  /**
   * How to search for `term`: the substring to hand the index (none: the whole term, when no substring is worth it)
   * and how many candidates the index will give. Undefined until a sample is in (or when it holds under 100 rows).
   */
  search(term: string): SampledSearch | undefined {
    if (this.now() - this.takenAt > this.maxAgeMs) void this.refresh();
    if (this.texts.length < 100) return undefined;
    let found = this.chosen.get(term);
    if (!found) {
      found = this.choose(term);
      if (this.chosen.size >= MAX_CACHED) this.chosen.clear();
      this.chosen.set(term, found);
    }
    return found;
  }

  /** The substring of least estimated cost, if it costs at most `WORTHWHILE` of the whole term. */
  private choose(term: string): SampledSearch {
    const runs = [...term.matchAll(WORD_RUN)].map((m) => m[0]);
    const all = [...new Set(runs.flatMap((run) => trigramsOf(run.toLowerCase())))];
    if (!all.length || all.length > MAX_TRIGRAMS) return { candidates: this.tableRows };
    const whole = { text: undefined, ...this.estimate(all) };
    let best: { text: string; cost: number; candidates: number } | undefined;
    for (const run of runs) {
      for (let start = 0; start + 3 <= run.length; start++) {
        for (let end = start + 3; end <= Math.min(run.length, start + MAX_SUBSTRING); end++) {
          const text = run.slice(start, end);
          const estimate = this.estimate(trigramsOf(text.toLowerCase()));
          if (!best || estimate.cost < best.cost) best = { text, ...estimate };
        }
      }
    }
    const chosen = best && best.cost <= whole.cost * WORTHWHILE ? best : whole;
    return { indexTerm: chosen.text, candidates: chosen.candidates };
  }

  /** Takes a new sample now (a search does it when the last is stale); resolves when it is in. */
  refresh(): Promise<void> {
    this.taking ??= this.take()
      .catch(() => undefined) // a failed sample leaves the last one (searches stay correct either way)
      .finally(() => {
        this.taking = undefined;
      });
    return this.taking;
  }

  /**
   * What searching with these trigrams is estimated to cost, in sampled posting-list entries: every trigram's list
   * decoded, plus each candidate (a sampled row holding all of them) read and checked; and the candidates in the table.
   */
  private estimate(trigrams: string[]): { cost: number; candidates: number } {
    let decoded = 0;
    let held: Uint32Array | undefined;
    for (const trigram of trigrams) {
      const rows = this.holdersOf(trigram);
      decoded += popcount(rows);
      held = held ? and(held, rows) : rows;
    }
    // A row no sampled row holds is still somewhere in the table: half a sampled row, not none.
    const sampled = Math.max(held ? popcount(held) : 0, 0.5);
    return {
      cost: decoded + RECHECK_WEIGHT * sampled,
      candidates: Math.round((sampled / this.texts.length) * this.tableRows),
    };
  }

  private holdersOf(trigram: string): Uint32Array {
    let rows = this.holders.get(trigram);
    if (!rows) {
      rows = new Uint32Array(Math.ceil(this.texts.length / 32));
      for (let i = 0; i < this.texts.length; i++) if (this.texts[i]!.includes(trigram)) rows[i >> 5]! |= 1 << (i & 31);
      if (this.holders.size >= MAX_CACHED) this.holders.clear();
      this.holders.set(trigram, rows);
    }
    return rows;
  }

  /** Pages picked at random (`TABLESAMPLE SYSTEM`) for about 1.5 times the rows kept: a few pages' reads, not a scan. */
  private async take(): Promise<void> {
    const { table, text } = this.options;
    const [stats] = await this.db.query<Array<{ rows: number | string | null }>>(
      `SELECT reltuples AS rows FROM pg_class WHERE oid = $1::regclass`,
      [table],
    );
    const estimated = Number(stats?.rows ?? -1);
    const percent = estimated > 0 ? Math.min(100, (150 * this.rows) / estimated) : 100;
    const rows = await this.db.query<Array<{ text: string | null }>>(
      `SELECT ${text} AS text FROM ${table} TABLESAMPLE SYSTEM (${percent.toFixed(6)}) LIMIT ${this.rows}`,
    );
    this.texts = rows.map((r) => r.text ?? '');
    // Unanalyzed (-1): all of a small table was read; a full sample says only that there are at least as many rows.
    this.tableRows =
      estimated > 0
        ? Math.max(estimated, this.texts.length)
        : this.texts.length < this.rows
          ? this.texts.length
          : Infinity;
    this.holders.clear();
    this.chosen.clear();
    this.takenAt = this.now();
  }
}

/** The three-character windows of a word, as `pg_trgm` makes of a word inside a `%…%` pattern (no padding). */
function trigramsOf(word: string): string[] {
  const out: string[] = [];
  for (let i = 0; i + 3 <= word.length; i++) out.push(word.slice(i, i + 3));
  return out;
}

function and(a: Uint32Array, b: Uint32Array): Uint32Array {
  const out = new Uint32Array(a.length);
  for (let i = 0; i < a.length; i++) out[i] = a[i]! & b[i]!;
  return out;
}

function popcount(bits: Uint32Array): number {
  let n = 0;
  for (let word of bits) {
    while (word) {
      word &= word - 1;
      n++;
    }
  }
  return n;
}
