import { Tooltip } from '@mantine/core';
import { formatDateTime, formatUtc } from './format';

/** A timestamp in the browser's time zone; hovering (or focusing) shows it in UTC. */
export function DateTime({ value }: { value: string | null | undefined }) {
  if (!value) return <span>—</span>;
  return (
    <Tooltip label={formatUtc(value)} openDelay={300} withinPortal>
      <time dateTime={value} tabIndex={-1}>
        {formatDateTime(value)}
      </time>
    </Tooltip>
  );
}
