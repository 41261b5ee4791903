/** UTC calendar periods a budget can be aligned to. Weeks start on Monday. */
export type CalendarUnit = 'day' | 'week' | 'month' | 'quarter' | 'year';

/** How a counter forgets. */
export type CounterWindow =
  /** Starts at the first hit (an `increment` or `commit`) and resets `ms` later; the next hit starts a new one. */
  | { kind: 'fixed'; ms: number }
  /** Resets on UTC calendar boundaries; quarters begin in `quarterStartMonth` (1–12, default 1) and every third after. */
  | { kind: 'calendar'; unit: CalendarUnit; quarterStartMonth?: number }
  /** Exact sliding window: the sum of the amounts added within the last `ms`. */
  | { kind: 'rolling'; ms: number };

/** Fixed and calendar windows share one storage layout (a counter can switch between them and keep its usage). */
export type WindowLayout = 'fixed' | 'rolling';

const DAY_MS = 86_400_000;

export function windowLayout(window: CounterWindow): WindowLayout {
  return window.kind === 'rolling' ? 'rolling' : 'fixed';
}

/** The UTC calendar period containing `now`: [start, end). */
export function calendarPeriod(unit: CalendarUnit, now: number, quarterStartMonth = 1): { start: number; end: number } {
  const date = new Date(now);
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth();
  switch (unit) {
    case 'day': {
      const start = Date.UTC(year, month, date.getUTCDate());
      return { start, end: start + DAY_MS };
    }
    case 'week': {
      const sinceMonday = (date.getUTCDay() + 6) % 7;
      const start = Date.UTC(year, month, date.getUTCDate()) - sinceMonday * DAY_MS;
      return { start, end: start + 7 * DAY_MS };
    }
    case 'month':
      return { start: Date.UTC(year, month, 1), end: Date.UTC(year, month + 1, 1) };
    case 'quarter': {
      const startMonth = month - ((((month - (quarterStartMonth - 1)) % 3) + 3) % 3);
      return { start: Date.UTC(year, startMonth, 1), end: Date.UTC(year, startMonth + 3, 1) };
    }
    case 'year':
      return { start: Date.UTC(year, 0, 1), end: Date.UTC(year + 1, 0, 1) };
  }
}

/** Where a fixed or calendar window that starts at `now` ends. */
export function newWindowEnd(window: Exclude<CounterWindow, { kind: 'rolling' }>, now: number): number {
  return window.kind === 'fixed' ? now + window.ms : calendarPeriod(window.unit, now, window.quarterStartMonth).end;
}

/** Programming errors, thrown before anything is stored. */
export function assertWindow(window: CounterWindow): void {
  if (window.kind === 'calendar') {
    const month = window.quarterStartMonth;
    if (month !== undefined && !(Number.isInteger(month) && month >= 1 && month <= 12)) {
      throw new RangeError(`quarterStartMonth must be 1–12, got ${month}`);
    }
    return;
  }
  if (!Number.isInteger(window.ms) || window.ms <= 0) throw new RangeError(`window ms must be a positive integer`);
}

export function assertAmount(amount: number, what = 'amount'): void {
  if (!Number.isFinite(amount) || amount < 0) throw new RangeError(`${what} must be a finite number >= 0`);
}
