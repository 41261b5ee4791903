const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** Parses `30s`, `5m`, `1h`, `2d` or `250ms` into milliseconds; returns undefined for anything else. */
export function parseDuration(value: string): number | undefined {
  const match = /^(\d+)(ms|s|m|h|d)$/.exec(value.trim());
  if (!match) return undefined;
  return Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
}

const GO_UNIT_MS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  μs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};
const GO_DURATION =
  /^(?:\d+(?:\.\d*)?|\.\d+)(?:ns|us|µs|μs|ms|s|m|h)(?:(?:\d+(?:\.\d*)?|\.\d+)(?:ns|us|µs|μs|ms|s|m|h))*$/;
const GO_PART = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/g;

/**
 * Parses a Go duration string (`30s`, `1m30s`, `1.5h`, `250ms`; no sign, units ns … h), the form this product family's
 * policies write durations in, into milliseconds (fractional below 1 ms). Undefined for anything else, `0` included:
 * every duration read this way must be positive.
 */
export function parseGoDuration(value: string): number | undefined {
  if (!GO_DURATION.test(value)) return undefined;
  let ms = 0;
  for (const [, amount, unit] of value.matchAll(GO_PART)) ms += Number(amount) * GO_UNIT_MS[unit!]!;
  return ms > 0 && Number.isFinite(ms) ? ms : undefined;
}
