import { Badge, Group, Stack, Text, Tooltip, UnstyledButton } from '@mantine/core';
import type { ColumnDef } from '@tanstack/react-table';
import { DateTime } from '../../shared/format/date-time';
import { formatCost, formatDateTime, formatLatency, formatNumber } from '../../shared/format/format';
import { StatusBadge } from '../../shared/ui/status-badge';
import type { RequestLog } from './live-filter';

/**
 * The list's columns; `id` is the API's `sort_by` where the column sorts. The time cell is the row's button (keyboard
 * users open the detail from there).
 */
export function logColumns(open: (row: RequestLog) => void): Array<ColumnDef<RequestLog, unknown>> {
  return [
    {
      id: 'timestamp',
      header: 'Time',
      enableSorting: true,
      cell: ({ row }) => (
        <UnstyledButton
          onClick={(event) => {
            event.stopPropagation();
            open(row.original);
          }}
          aria-label={`Open the log of ${formatDateTime(row.original.timestamp)}`}
          fz="sm"
          style={{ whiteSpace: 'nowrap' }}
        >
          <DateTime value={row.original.timestamp} />
        </UnstyledButton>
      ),
    },
    { id: 'status', header: 'Status', cell: ({ row }) => <StatusBadge row={row.original} /> },
    {
      id: 'model',
      header: 'Provider / model',
      cell: ({ row }) => (
        <Stack gap={0}>
          <Text size="sm">
            {row.original.provider ?? '—'} / {row.original.model ?? '—'}
          </Text>
          <Group gap={4}>
            {row.original.fallback_index > 0 && (
              <Badge size="xs" variant="default">
                fallback {row.original.fallback_index}
              </Badge>
            )}
            {row.original.cache_hit && (
              <Badge size="xs" variant="default">
                cache hit
              </Badge>
            )}
            {row.original.stream && (
              <Badge size="xs" variant="default">
                stream
              </Badge>
            )}
          </Group>
        </Stack>
      ),
    },
    {
      id: 'virtual_key',
      header: 'Virtual key',
      cell: ({ row }) => <Text size="sm">{row.original.virtual_key_name ?? '—'}</Text>,
    },
    {
      id: 'latency',
      header: 'Latency',
      enableSorting: true,
      cell: ({ row }) => (
        <Text size="sm" ta="right">
          {formatLatency(row.original.latency)}
        </Text>
      ),
    },
    {
      id: 'tokens',
      header: 'Tokens',
      enableSorting: true,
      cell: ({ row }) => (
        <Tooltip
          label={`${formatNumber(row.original.prompt_tokens)} in, ${formatNumber(row.original.completion_tokens)} out`}
          disabled={row.original.total_tokens === null}
        >
          <Text size="sm" ta="right">
            {formatNumber(row.original.total_tokens)}
          </Text>
        </Tooltip>
      ),
    },
    {
      id: 'cost',
      header: 'Cost',
      enableSorting: true,
      cell: ({ row }) => (
        <Text size="sm" ta="right">
          {formatCost(row.original.cost)}
        </Text>
      ),
    },
  ];
}
