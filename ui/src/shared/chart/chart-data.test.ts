import { describe, expect, it } from 'vitest';
import { chartColumns, drawnMax } from './chart-data';

const series = [
  { name: 'success', label: 'Success', color: 'teal.6' },
  { name: 'error', label: 'Errors', color: 'red.6' },
];

describe('chart data', () => {
  it('turns rows into columns per series, a non-number as missing', () => {
    const rows = [
      { time: '14:00', success: 3, error: 1 },
      { time: '14:01', success: null, error: 2 },
    ];
    expect(chartColumns(rows, 'time', series)).toEqual({
      labels: ['14:00', '14:01'],
      values: [
        [3, null],
        [1, 2],
      ],
      drawn: [
        [3, null],
        [1, 2],
      ],
    });
  });

  it('stacks each series on those before it; an interval with nothing stays empty', () => {
    const rows = [
      { time: '14:00', success: 3, error: 1 },
      { time: '14:01', success: null, error: 2 },
      { time: '14:02', success: null, error: null },
    ];
    const { values, drawn } = chartColumns(rows, 'time', series, true);
    expect(values).toEqual([
      [3, null, null],
      [1, 2, null],
    ]);
    expect(drawn).toEqual([
      [3, null, null],
      [4, 2, null],
    ]);
    expect(drawnMax(drawn)).toBe(4);
    expect(drawnMax([[null]])).toBe(0);
  });
});
