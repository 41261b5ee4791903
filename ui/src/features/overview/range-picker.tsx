import { Button, Group, SegmentedControl, TextInput } from '@mantine/core';
import { useEffect, useState } from 'react';
import { fromLocalInput, toLocalInput } from '../../shared/time/ranges';
import { rangeKindOf, type OverviewPeriod, type OverviewSearch } from './overview-search';

const LABELS: Record<OverviewPeriod | 'custom', string> = {
  '1h': 'Last hour',
  '24h': '24 hours',
  '7d': '7 days',
  custom: 'Custom',
};

/**
 * The overview's range: a period (a click applies it) or a custom range (From and To, applied together; the earlier
 * must come first).
 */
export function RangePicker({
  search,
  range,
  onChange,
}: {
  search: OverviewSearch;
  /** The range shown now, absolute: what the custom inputs start from. */
  range: { start_time: string; end_time: string };
  onChange: (next: OverviewSearch) => void;
}) {
  const kind = rangeKindOf(search);
  const [custom, setCustom] = useState(kind === 'custom');
  const [from, setFrom] = useState(toLocalInput(range.start_time));
  const [to, setTo] = useState(toLocalInput(range.end_time));
  const [error, setError] = useState<string>();
  useEffect(() => setCustom(kind === 'custom'), [kind]);

  const apply = () => {
    const start = fromLocalInput(from);
    const end = fromLocalInput(to);
    if (!start || !end || Number.isNaN(Date.parse(start)) || Number.isNaN(Date.parse(end)))
      return setError('Enter both dates');
    if (Date.parse(start) >= Date.parse(end)) return setError('From must be before To');
    setError(undefined);
    onChange({ ...search, period: undefined, start_time: start, end_time: end });
  };

  return (
    <Group gap="xs" align="flex-end" wrap="wrap">
      <SegmentedControl
        aria-label="Time range"
        value={custom ? 'custom' : kind}
        data={Object.entries(LABELS).map(([value, label]) => ({ value, label }))}
        onChange={(value) => {
          if (value === 'custom') {
            setFrom(toLocalInput(range.start_time));
            setTo(toLocalInput(range.end_time));
            return setCustom(true);
          }
          setCustom(false);
          onChange({ ...search, period: value as OverviewPeriod, start_time: undefined, end_time: undefined });
        }}
      />
      {custom && (
        <Group gap="xs" align="flex-start" wrap="wrap">
          <TextInput
            type="datetime-local"
            label="From"
            size="xs"
            value={from}
            onChange={(e) => setFrom(e.currentTarget.value)}
            error={error}
          />
          <TextInput
            type="datetime-local"
            label="To"
            size="xs"
            value={to}
            onChange={(e) => setTo(e.currentTarget.value)}
          />
          <Button size="xs" mt={22} onClick={apply}>
            Apply range
          </Button>
        </Group>
      )}
    </Group>
  );
}
