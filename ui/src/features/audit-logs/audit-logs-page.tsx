import { Anchor, Button, Group, Paper, Select, Text, TextInput } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { ColumnDef } from '@tanstack/react-table';
import { useState } from 'react';
import { api, call } from '../../api/client';
import { listAuditLogsQuery } from '../../api/constraints.gen';
import { fieldProblem } from '../../shared/forms/constraints';
import { DateTime } from '../../shared/format/date-time';
import { ServerTable } from '../../shared/table/server-table';
import { ErrorAlert } from '../../shared/ui/error-alert';
import { IconRefresh } from '../../shared/ui/icons';
import { Page } from '../../shared/ui/page';
import { StatusBadge } from '../../shared/ui/status-badge';
import {
  AUDIT_DEFAULTS,
  auditSearchOf,
  metadataText,
  screenOf,
  type AuditEntry,
  type AuditQuery,
} from './audit-helpers';
import { auditLogsRoute } from './route';

const METHODS = (listAuditLogsQuery.properties.method?.enum ?? []).map(String);

const COLUMNS: Array<ColumnDef<AuditEntry, unknown>> = [
  { id: 'created_at', header: 'When', cell: ({ row }) => <DateTime value={row.original.created_at} /> },
  {
    id: 'actor',
    header: 'Who',
    cell: ({ row }) => (
      <>
        <Text size="sm">{row.original.actor ?? 'unauthenticated'}</Text>
        <Text size="xs" c="dimmed">
          {row.original.auth_method ?? ''}
          {row.original.client_address ? ` from ${row.original.client_address}` : ''}
        </Text>
      </>
    ),
  },
  {
    id: 'action',
    header: 'What',
    cell: ({ row }) => (
      <>
        <Text size="sm" ff="monospace" style={{ wordBreak: 'break-all' }}>
          {row.original.method} {row.original.path}
        </Text>
        {metadataText(row.original.metadata) && (
          <Text size="xs" c="dimmed" style={{ wordBreak: 'break-word' }}>
            {metadataText(row.original.metadata)}
          </Text>
        )}
      </>
    ),
  },
  { id: 'permission', header: 'Permission', cell: ({ row }) => row.original.permission ?? '—' },
  {
    id: 'status_code',
    header: 'Status',
    cell: ({ row }) => (
      <StatusBadge
        row={{ status: row.original.status_code < 400 ? 'success' : 'error', status_code: row.original.status_code }}
      />
    ),
  },
  {
    id: 'object',
    header: 'Object',
    cell: ({ row }) => {
      const screen = screenOf(row.original);
      if (!screen) return row.original.target_id ?? '—';
      return (
        <Anchor component={Link} to={screen.to} search={(screen.search ?? {}) as never} size="sm">
          {screen.label}
        </Anchor>
      );
    },
  },
];

type Filters = Pick<AuditQuery, 'actor' | 'method' | 'permission'> & { status_code?: string };

function FilterForm({ search, onApply }: { search: AuditQuery; onApply: (filters: AuditQuery) => void }) {
  const [filters, setFilters] = useState<Filters>({
    actor: search.actor,
    method: search.method,
    permission: search.permission,
    status_code: search.status_code?.toString(),
  });
  const statusProblem = fieldProblem(filters.status_code, listAuditLogsQuery.properties.status_code!);
  return (
    <form
      aria-label="Filter the audit log"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (statusProblem) return;
        onApply({
          actor: filters.actor?.trim() || undefined,
          method: filters.method,
          permission: filters.permission?.trim() || undefined,
          status_code: filters.status_code?.trim() ? Number(filters.status_code) : undefined,
        });
      }}
    >
      <Group align="flex-end" gap="sm" wrap="wrap">
        <TextInput
          label="Actor"
          placeholder="admin"
          value={filters.actor ?? ''}
          onChange={(event) => setFilters({ ...filters, actor: event.currentTarget.value })}
        />
        <Select
          label="Method"
          placeholder="Any"
          data={METHODS}
          clearable
          w={130}
          value={filters.method ?? null}
          onChange={(method) => setFilters({ ...filters, method: (method ?? undefined) as AuditQuery['method'] })}
        />
        <TextInput
          label="Status"
          placeholder="403"
          inputMode="numeric"
          w={110}
          value={filters.status_code ?? ''}
          error={statusProblem}
          onChange={(event) => setFilters({ ...filters, status_code: event.currentTarget.value })}
        />
        <TextInput
          label="Permission"
          placeholder="Settings:Update"
          value={filters.permission ?? ''}
          onChange={(event) => setFilters({ ...filters, permission: event.currentTarget.value })}
        />
        <Button type="submit" variant="default">
          Apply
        </Button>
      </Group>
    </form>
  );
}

/**
 * The audit log: every management write, allowed or refused, newest first (`GET /api/audit-logs`), filtered by who,
 * method, status and permission, paged by the API, each row linking to the screen of the object it changed.
 */
export function AuditLogsPage() {
  const search = auditLogsRoute.useSearch();
  const navigate = auditLogsRoute.useNavigate();
  const query = { ...AUDIT_DEFAULTS, ...search };
  const list = useQuery({
    queryKey: ['audit-logs', query],
    queryFn: ({ signal }) => call(api.GET('/api/audit-logs', { params: { query }, signal })),
    placeholderData: keepPreviousData,
  });
  return (
    <Page
      title="Audit log"
      description="Management writes, allowed and refused, newest first."
      actions={
        <Button
          variant="default"
          leftSection={<IconRefresh size={16} aria-hidden />}
          loading={list.isFetching}
          onClick={() => void list.refetch()}
        >
          Refresh
        </Button>
      }
    >
      <Paper withBorder p="md" radius="md">
        <FilterForm
          search={search}
          onApply={(filters) => void navigate({ search: auditSearchOf({ ...search, ...filters, offset: 0 }) })}
        />
      </Paper>
      {list.isError ? (
        <ErrorAlert error={list.error} />
      ) : (
        <ServerTable
          label="Audit log"
          columns={COLUMNS}
          rows={list.data?.audit_logs ?? []}
          rowId={(entry) => entry.id}
          total={list.data?.pagination.total_count ?? 0}
          page={{ offset: query.offset, limit: query.limit }}
          onPage={(page) => void navigate({ search: auditSearchOf({ ...search, ...page }) })}
          loading={list.isFetching}
          empty={<Text c="dimmed">No write matches these filters.</Text>}
          minWidth={960}
        />
      )}
    </Page>
  );
}
