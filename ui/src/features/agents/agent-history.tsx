import {
  Button,
  Drawer,
  Group,
  Loader,
  Paper,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { useState } from 'react';
import { api, call } from '../../api/client';
import type { Schema } from '../../api/schemas';
import { DateTime } from '../../shared/format/date-time';
import { formatDateTime, formatLatency } from '../../shared/format/format';
import { ServerTable } from '../../shared/table/server-table';
import { Facts, Json, Section } from '../../shared/ui/details';
import { ErrorAlert } from '../../shared/ui/error-alert';
import { StatusBadge } from '../../shared/ui/status-badge';
import { OPERATIONS } from './agent-helpers';
import { historyQueryOf, type AgentsSearch } from './agents-search';

type Operation = Schema<'AgentOperation'>;

const columns = (open: (row: Operation) => void): Array<ColumnDef<Operation, unknown>> => [
  {
    id: 'created_at',
    header: 'When',
    cell: ({ row }) => (
      <UnstyledButton
        onClick={(event) => {
          event.stopPropagation();
          open(row.original);
        }}
        aria-label={`Open ${row.original.operation} of ${formatDateTime(row.original.created_at)}`}
        fz="sm"
        style={{ whiteSpace: 'nowrap' }}
      >
        <DateTime value={row.original.created_at} />
      </UnstyledButton>
    ),
  },
  { id: 'agent', header: 'Agent', cell: ({ row }) => row.original.agent_name },
  { id: 'operation', header: 'Operation', cell: ({ row }) => row.original.operation },
  { id: 'status', header: 'Status', cell: ({ row }) => <StatusBadge row={row.original} /> },
  { id: 'task', header: 'Task state', cell: ({ row }) => row.original.task_state ?? '—' },
  { id: 'binding', header: 'Binding', cell: ({ row }) => row.original.protocol_binding ?? '—' },
  { id: 'latency', header: 'Latency', cell: ({ row }) => formatLatency(row.original.latency_ms) },
];

/** The history of A2A operations through the gateway, filtered by the URL; a row opens its detail in a drawer. */
export function AgentHistory({
  search,
  go,
  agentNames,
}: {
  search: AgentsSearch;
  go: (next: AgentsSearch) => void;
  agentNames: string[];
}) {
  const query = historyQueryOf(search);
  const list = useQuery({
    queryKey: ['agents', 'history', query],
    queryFn: ({ signal }) => call(api.GET('/api/agents/history', { params: { query }, signal })),
    placeholderData: keepPreviousData,
  });
  const [taskId, setTaskId] = useState(search.task_id ?? '');
  const filter = (next: Partial<AgentsSearch>) => go({ ...search, ...next, offset: 0 });
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="agent-history">
      <Stack gap="sm">
        <Title order={2} size="h4" id="agent-history">
          History
        </Title>
        <Group gap="xs" align="flex-end" wrap="wrap">
          <Select
            label="Agent"
            placeholder="All agents"
            clearable
            data={[...new Set([...agentNames, ...(search.agent_names ? [search.agent_names] : [])])]}
            value={search.agent_names ?? null}
            onChange={(value) => filter({ agent_names: value ?? undefined })}
          />
          <Select
            label="Operation"
            placeholder="All operations"
            clearable
            searchable
            data={[...OPERATIONS]}
            value={search.operations ?? null}
            onChange={(value) => filter({ operations: value ?? undefined })}
          />
          <Select
            label="Status"
            placeholder="Any status"
            clearable
            data={['success', 'error']}
            value={search.statuses ?? null}
            onChange={(value) => filter({ statuses: value ?? undefined })}
          />
          <form
            onSubmit={(event) => {
              event.preventDefault();
              filter({ task_id: taskId.trim() || undefined });
            }}
          >
            <TextInput
              label="Task id"
              value={taskId}
              onChange={(event) => setTaskId(event.currentTarget.value)}
              description="Enter to apply"
            />
          </form>
          <Button variant="default" onClick={() => void list.refetch()}>
            Refresh
          </Button>
        </Group>
        {list.isError ? (
          <ErrorAlert error={list.error} />
        ) : list.data?.history.length === 0 && query.offset === 0 ? (
          // Empty, the table would be a scrolling box on a phone with nothing in it to focus (axe).
          <Text c="dimmed" size="sm">
            No operation matches. Calls to /agents/a2a/&lt;name&gt; with a virtual key are recorded here.
          </Text>
        ) : (
          <ServerTable
            label="Agent operations"
            columns={columns((row) => go({ ...search, entry: row.id }))}
            rows={list.data?.history ?? []}
            rowId={(row) => row.id}
            total={list.data?.pagination.total_count ?? 0}
            page={{ offset: query.offset, limit: query.limit }}
            onPage={(page) => go({ ...search, ...page })}
            onRowClick={(row) => go({ ...search, entry: row.id })}
            rowProps={(row) => (row.id === search.entry ? { 'aria-current': true } : undefined)}
            loading={list.isPending}
            pageSizes={[25, 50, 100]}
            minWidth={820}
            empty={
              <Text c="dimmed" size="sm">
                No operation matches. Calls to /agents/a2a/&lt;name&gt; with a virtual key are recorded here.
              </Text>
            }
          />
        )}
      </Stack>
      <OperationDrawer id={search.entry} onClose={() => go({ ...search, entry: undefined })} />
    </Paper>
  );
}

function OperationDrawer({ id, onClose }: { id: string | undefined; onClose: () => void }) {
  const entry = useQuery({
    queryKey: ['agents', 'history', 'entry', id],
    queryFn: ({ signal }) => call(api.GET('/api/agents/history/{id}', { params: { path: { id: id! } }, signal })),
    enabled: id !== undefined,
  });
  const op = entry.data;
  return (
    <Drawer opened={id !== undefined} onClose={onClose} position="right" size="lg" title="Agent operation">
      {entry.isPending ? (
        <Loader size="sm" />
      ) : entry.isError ? (
        <ErrorAlert error={entry.error} />
      ) : (
        op && (
          <Stack gap="md">
            <Group gap="xs">
              <StatusBadge row={op} />
              <Text size="sm" c="dimmed">
                {op.operation} on {op.agent_name}
              </Text>
            </Group>
            <Facts
              rows={[
                ['When', <DateTime key="at" value={op.created_at} />],
                ['Agent', op.agent_name],
                ['Operation', op.operation],
                ['Binding', op.protocol_binding],
                ['Virtual key', op.virtual_key_id],
                ['Task', op.task_id],
                ['Context', op.context_id],
                ['Task state', op.task_state],
                ['Latency', formatLatency(op.latency_ms)],
                ['Part of', op.parent_id],
                ['Operation id', op.id],
              ]}
            />
            {op.error && (
              <Section title="Error">
                <Json value={op.error} />
              </Section>
            )}
            {op.request_payload && (
              <Section title="Request">
                <Json value={op.request_payload} />
              </Section>
            )}
            {op.response_payload && (
              <Section title="Response">
                <Json value={op.response_payload} />
              </Section>
            )}
          </Stack>
        )
      )}
    </Drawer>
  );
}
