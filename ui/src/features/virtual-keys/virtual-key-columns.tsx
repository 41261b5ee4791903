import { Badge, Text, UnstyledButton } from '@mantine/core';
import type { ColumnDef } from '@tanstack/react-table';
import { DateTime } from '../../shared/format/date-time';
import { formatNumber } from '../../shared/format/format';
import { usageLabel } from './quota';
import { providersLine, type VirtualKey } from './virtual-key-values';

/** Filled badges in shades whose white text passes WCAG AA in both schemes (as the logs' status badges). */
const ON_COLOR = '#1e6b30';
const OFF_COLOR = 'gray.7';

/** The list's columns; `id` is the API's `sort_by` where the column sorts. The name is the row's button. */
export function virtualKeyColumns(open: (key: VirtualKey) => void): Array<ColumnDef<VirtualKey, unknown>> {
  return [
    {
      id: 'name',
      header: 'Name',
      enableSorting: true,
      cell: ({ row }) => (
        <UnstyledButton
          fw={600}
          fz="sm"
          onClick={(event) => {
            event.stopPropagation();
            open(row.original);
          }}
          aria-label={`Open the virtual key ${row.original.name}`}
          style={{ wordBreak: 'break-word' }}
        >
          {row.original.name}
        </UnstyledButton>
      ),
    },
    {
      id: 'state',
      header: 'State',
      cell: ({ row }) => (
        <Badge variant="filled" color={row.original.is_active ? ON_COLOR : OFF_COLOR} tt="none">
          {row.original.is_active ? 'active' : 'disabled'}
        </Badge>
      ),
    },
    {
      id: 'providers',
      header: 'Providers',
      cell: ({ row }) => <Text size="sm">{providersLine(row.original)}</Text>,
    },
    {
      id: 'budgets',
      header: 'Budget',
      cell: ({ row }) => (
        <Text size="sm">
          {row.original.budgets
            .map((b) => `${usageLabel(b.current_usage, b.effective_max_limit, 'usd')} / ${b.reset_duration}`)
            .join('; ') || '—'}
        </Text>
      ),
    },
    {
      id: 'rate_limit',
      header: 'Rate limit',
      cell: ({ row }) => {
        const rl = row.original.rate_limit;
        const parts = [
          rl?.request_max_limit != null && `${formatNumber(rl.request_max_limit)} req / ${rl.request_reset_duration}`,
          rl?.token_max_limit != null && `${formatNumber(rl.token_max_limit)} tokens / ${rl.token_reset_duration}`,
        ].filter(Boolean);
        return <Text size="sm">{parts.join(', ') || '—'}</Text>;
      },
    },
    {
      id: 'created_at',
      header: 'Created',
      enableSorting: true,
      cell: ({ row }) => (
        <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
          <DateTime value={row.original.created_at} />
        </Text>
      ),
    },
  ];
}
