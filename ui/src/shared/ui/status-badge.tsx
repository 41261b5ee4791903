import { Badge } from '@mantine/core';

/** Filled, in shades whose white text passes WCAG AA in both schemes (green.9 measures 4.4:1). */
const STATUS_COLOR: Record<string, string> = { success: '#1e6b30', error: 'red.9', processing: 'gray.7' };

/** A log row's status (`success`, `error`, `processing`), with its HTTP status when it has one. */
export function StatusBadge({ row }: { row: { status: string; status_code?: number | null } }) {
  return (
    <Badge color={STATUS_COLOR[row.status] ?? 'gray.7'} variant="filled" style={{ textTransform: 'none' }}>
      {row.status}
      {row.status_code ? ` ${row.status_code}` : ''}
    </Badge>
  );
}
