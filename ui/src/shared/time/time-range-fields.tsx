import { Select, SimpleGrid, TextInput } from '@mantine/core';
import { PERIODS } from './ranges';

/** A form's `getInputProps` for the time-range fields every log filter has. */
type RangeInputProps = (path: 'period' | 'start_time' | 'end_time') => object;

const PERIOD_CHOICES = [
  { value: 'all', label: 'Any time' },
  ...Object.keys(PERIODS).map((p) => ({ value: p, label: `Last ${p}` })),
  { value: 'custom', label: 'Custom range' },
];

/** The time range of a log filter: any time, one of the last periods, or a custom range. */
export function PeriodSelect({ inputProps }: { inputProps: RangeInputProps }) {
  return <Select label="Time range" allowDeselect={false} data={PERIOD_CHOICES} {...inputProps('period')} />;
}

/** The From and To of a custom range, in the browser's time zone; shown only while the period is `custom`. */
export function CustomRangeFields({ period, inputProps }: { period: string; inputProps: RangeInputProps }) {
  if (period !== 'custom') return null;
  return (
    <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="sm" mt="xs">
      <TextInput type="datetime-local" label="From" {...inputProps('start_time')} />
      <TextInput type="datetime-local" label="To" {...inputProps('end_time')} />
    </SimpleGrid>
  );
}
