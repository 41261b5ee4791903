import { Anchor, Badge, Group, Text, UnstyledButton } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import type { ColumnDef } from '@tanstack/react-table';
import type { Schema } from '../../api/schemas';
import { DateTime } from '../../shared/format/date-time';
import { formatCost, formatDateTime, formatLatency } from '../../shared/format/format';
import { StatusBadge } from '../../shared/ui/status-badge';

export type McpToolLog = Schema<'McpToolLog'>;

/** The request log of the inference request that asked for a tool call (its drawer on the request logs screen). */
export function LlmRequestLink({ id, label }: { id: string; label?: string }) {
  return (
    <Anchor
      component={Link}
      to="/logs"
      search={{ log: id } as never}
      size="sm"
      onClick={(event: React.MouseEvent) => event.stopPropagation()}
      aria-label={`Open the LLM request ${id}`}
      // The full id (the drawer) wraps anywhere; the list's short form never.
      style={label ? { wordBreak: 'break-all' } : { whiteSpace: 'nowrap' }}
    >
      {label ?? `${id.slice(0, 8)}…`}
    </Anchor>
  );
}

/**
 * The list's columns; `id` is the API's `sort_by` where the column sorts. The time cell is the row's button (keyboard
 * users open the detail from there).
 */
export function mcpLogColumns(open: (row: McpToolLog) => void): Array<ColumnDef<McpToolLog, unknown>> {
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
          aria-label={`Open the tool log of ${formatDateTime(row.original.timestamp)}`}
          fz="sm"
          style={{ whiteSpace: 'nowrap' }}
        >
          <DateTime value={row.original.timestamp} />
        </UnstyledButton>
      ),
    },
    { id: 'status', header: 'Status', cell: ({ row }) => <StatusBadge row={row.original} /> },
    {
      id: 'tool',
      header: 'Tool',
      cell: ({ row }) => (
        <Group gap={4} wrap="nowrap">
          <Text size="sm">{row.original.tool_name || '—'}</Text>
          {row.original.mcp_request_type !== 'tool' && (
            <Badge size="xs" variant="default">
              {row.original.mcp_request_type}
            </Badge>
          )}
        </Group>
      ),
    },
    { id: 'server', header: 'Server', cell: ({ row }) => <Text size="sm">{row.original.server_label}</Text> },
    {
      id: 'virtual_key',
      header: 'Virtual key',
      cell: ({ row }) => <Text size="sm">{row.original.virtual_key_name ?? row.original.virtual_key_id ?? '—'}</Text>,
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
      id: 'cost',
      header: 'Cost',
      enableSorting: true,
      cell: ({ row }) => (
        <Text size="sm" ta="right">
          {formatCost(row.original.cost)}
        </Text>
      ),
    },
    {
      id: 'llm_request',
      header: 'LLM request',
      cell: ({ row }) =>
        row.original.llm_request_id ? (
          <LlmRequestLink id={row.original.llm_request_id} />
        ) : (
          <Text size="sm" c="dimmed">
            —
          </Text>
        ),
    },
  ];
}
