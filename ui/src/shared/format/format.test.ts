import { describe, expect, it } from 'vitest';
import { formatCost, formatDateTime, formatLatency, formatNumber, formatPercent, formatUtc, UNKNOWN } from './format';

describe('formatters', () => {
  it('counts are grouped for the locale', () => {
    expect(formatNumber(1234567, { locale: 'en-US' })).toBe('1,234,567');
    expect(formatNumber(1234567, { locale: 'de-DE' })).toBe('1.234.567');
    expect(formatNumber(null)).toBe(UNKNOWN);
  });

  it('costs: cents from a dollar up, six decimals below, unknown is not zero', () => {
    expect(formatCost(12.5, { locale: 'en-US' })).toBe('$12.50');
    expect(formatCost(0.000123, { locale: 'en-US' })).toBe('$0.000123');
    expect(formatCost(0.00000004, { locale: 'en-US' })).toBe('$0.00');
    expect(formatCost(0, { locale: 'en-US' })).toBe('$0.00');
    expect(formatCost(1234.5, { locale: 'de-DE' })).toBe('1.234,50\u00a0$');
    expect(formatCost(null)).toBe(UNKNOWN);
  });

  it('latencies: ms below a second, seconds below a minute, then minutes', () => {
    expect(formatLatency(4.25, { locale: 'en-US' })).toBe('4.3 ms');
    expect(formatLatency(850, { locale: 'en-US' })).toBe('850 ms');
    expect(formatLatency(1250, { locale: 'en-US' })).toBe('1.25 s');
    expect(formatLatency(1250, { locale: 'fr-FR' })).toBe('1,25 s');
    expect(formatLatency(125_000, { locale: 'en-US' })).toBe('2 min 5 s');
  });

  it('percentages take 0-100', () => {
    expect(formatPercent(97.5, { locale: 'en-US' })).toBe('97.5%');
  });

  it('date-times in the given zone, UTC to the millisecond for the tooltip', () => {
    const iso = '2026-12-06T21:02:22.907Z';
    expect(formatDateTime(iso, { locale: 'en-US', timeZone: 'UTC' })).toBe('Dec 6, 2026, 9:02:22 PM');
    expect(formatDateTime(iso, { locale: 'en-US', timeZone: 'Asia/Tokyo' })).toBe('Dec 7, 2026, 6:02:22 AM');
    expect(formatDateTime(iso, { locale: 'de-DE', timeZone: 'Europe/Berlin' })).toBe('06.12.2026, 22:02:22');
    expect(formatUtc(iso)).toBe('2026-12-06 21:02:22.907 UTC');
    expect(formatDateTime(undefined)).toBe(UNKNOWN);
    expect(formatDateTime('not a date')).toBe('not a date');
  });
});
