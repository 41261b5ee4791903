import { Group, Paper, Tabs, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import { api, call } from '../../api/client';
import { describeError } from '../../api/errors';
import { GatedButton, useCaller, type Permission } from '../../shared/auth/permissions';
import { DateTime } from '../../shared/format/date-time';
import { ServerTable } from '../../shared/table/server-table';
import { useConfirm } from '../../shared/ui/confirm';
import { ErrorAlert } from '../../shared/ui/error-alert';
import { IconPlus } from '../../shared/ui/icons';
import { Page } from '../../shared/ui/page';
import { SearchForm } from '../../shared/ui/search-form';
import { LimitSummary } from './limit-bars';
import { OwnerDrawer } from './owner-drawer';
import { OwnerFormModal } from './owner-form';
import { filterOwners, ownerLabel, type Owner, type OwnerKind, type Team } from './owner-helpers';
import { teamsRoute } from './route';
import { TEAMS_DEFAULTS, teamsSearchOf, type TeamsSearch } from './teams-search';
import { EditDeleteButtons } from '../../shared/ui/edit-delete-buttons';

/** How often the lists are read again: usage moves on the request path. */
const REFRESH_MS = 15_000;

function columns(
  kind: OwnerKind,
  open: (owner: Owner) => void,
  edit: (owner: Owner) => void,
  remove: (owner: Owner) => void,
  /** Whether teams and customers can be linked (the enterprise edition): a team's column counts its customers. */
  links: boolean,
): Array<ColumnDef<Owner, unknown>> {
  const resource = kind === 'team' ? 'Teams' : 'Customers';
  const cols: Array<ColumnDef<Owner, unknown>> = [
    {
      id: 'name',
      header: 'Name',
      cell: ({ row }) => (
        <UnstyledButton
          fw={600}
          fz="sm"
          onClick={(event) => {
            event.stopPropagation();
            open(row.original);
          }}
          aria-label={`Open ${kind} ${row.original.name}`}
          style={{ wordBreak: 'break-word' }}
        >
          {row.original.name}
        </UnstyledButton>
      ),
    },
    { id: 'limits', header: 'Budgets and limits', cell: ({ row }) => <LimitSummary owner={row.original} /> },
  ];
  if (kind === 'team' && links)
    cols.push({
      id: 'customers',
      header: 'Customers',
      cell: ({ row }) => <Text size="sm">{(row.original as Team).customer_ids.length || '—'}</Text>,
    });
  cols.push(
    {
      id: 'created_at',
      header: 'Created',
      cell: ({ row }) => (
        <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
          <DateTime value={row.original.created_at} />
        </Text>
      ),
    },
    {
      id: 'actions',
      header: () => <VisuallyHidden>Actions</VisuallyHidden>,
      cell: ({ row }) => (
        <Group gap={4} wrap="nowrap" justify="flex-end" onClick={(event) => event.stopPropagation()}>
          <EditDeleteButtons
            object={`${kind} ${row.original.name}`}
            edit={{ permission: `${resource}:Update` as Permission, onClick: () => edit(row.original) }}
            remove={{ permission: `${resource}:Delete` as Permission, onClick: () => remove(row.original) }}
          />
        </Group>
      ),
    },
  );
  return cols;
}

/**
 * Teams and customers: listed (searched and paged on the screen: the API lists them whole), created, edited,
 * deleted after a confirmation naming them; each one's budgets and rate limit as bars with the reset time, its
 * virtual keys (links to the virtual keys screen) and its links.
 */
export function TeamsPage() {
  const search = teamsRoute.useSearch();
  const navigate = teamsRoute.useNavigate();
  const go = (next: TeamsSearch, replace = false) => void navigate({ search: teamsSearchOf(next), replace });
  const tab = search.tab ?? TEAMS_DEFAULTS.tab;
  const kind: OwnerKind = tab === 'teams' ? 'team' : 'customer';
  const limit = search.limit ?? TEAMS_DEFAULTS.limit;
  const offset = search.offset ?? TEAMS_DEFAULTS.offset;
  const queryClient = useQueryClient();
  const confirm = useConfirm();
  const { edition } = useCaller();
  const [form, setForm] = useState<{ editing?: Owner }>();

  const teams = useQuery({
    queryKey: ['teams', 'list', 'teams'],
    queryFn: ({ signal }) => call(api.GET('/api/governance/teams', { signal })),
    enabled: tab === 'teams',
    refetchInterval: REFRESH_MS,
  });
  const customers = useQuery({
    queryKey: ['teams', 'list', 'customers'],
    queryFn: ({ signal }) => call(api.GET('/api/governance/customers', { signal })),
    enabled: tab === 'customers',
    refetchInterval: REFRESH_MS,
  });
  const list = tab === 'teams' ? teams : customers;
  const all: Owner[] = (tab === 'teams' ? teams.data?.teams : customers.data?.customers) ?? [];
  const matching = useMemo(() => filterOwners(all, search.search), [all, search.search]);
  const rows = matching.slice(offset, offset + limit);
  const openOwner = search.open ? all.find((o) => o.id === search.open) : undefined;

  const refresh = () => queryClient.invalidateQueries({ queryKey: ['teams'] });
  const remove = async (owner: Owner) => {
    const label = ownerLabel(kind, owner.name);
    const sure = await confirm({
      title: `Delete ${kind}`,
      message:
        kind === 'team'
          ? `Delete the team ${owner.name}? Its budgets, rate limit and customer links go with it; its virtual keys stay, without a team.`
          : `Delete the customer ${owner.name}? Its budgets, rate limit and team links go with it; its virtual keys stay, without a customer.`,
      confirmLabel: `Delete ${owner.name}`,
      danger: true,
    });
    if (!sure) return;
    try {
      const done =
        kind === 'team'
          ? await call(api.DELETE('/api/governance/teams/{team_id}', { params: { path: { team_id: owner.id } } }))
          : await call(
              api.DELETE('/api/governance/customers/{customer_id}', {
                params: { path: { customer_id: owner.id } },
              }),
            );
      notifications.show({ color: 'green', message: done.message || `Deleted ${label}` });
      if (search.open === owner.id) go({ ...search, open: undefined }, true);
      queryClient.removeQueries({ queryKey: ['teams', 'keys', kind, owner.id] });
      await refresh();
    } catch (error) {
      notifications.show({ color: 'red', ...describeError(error) });
    }
  };
  const cols = useMemo(
    () =>
      columns(
        kind,
        (owner) => go({ ...search, open: owner.id }),
        (owner) => setForm({ editing: owner }),
        (owner) => void remove(owner),
        edition === 'enterprise',
      ),
    [kind, search, edition],
  );
  const noun = tab === 'teams' ? 'teams' : 'customers';
  const empty = (
    <Text c="dimmed">
      {search.search
        ? `No ${kind} has a name like this.`
        : tab === 'teams'
          ? 'No team yet. Create one to give a group of virtual keys a shared budget.'
          : 'No customer yet. Create one to cap what a customer’s keys spend.'}
    </Text>
  );

  return (
    <Page
      title="Teams and customers"
      description="Who virtual keys belong to, with the budgets and rate limits that cover all their keys."
      actions={
        <GatedButton
          permission={tab === 'teams' ? 'Teams:Create' : 'Customers:Create'}
          leftSection={<IconPlus size={16} aria-hidden />}
          onClick={() => setForm({})}
        >
          {tab === 'teams' ? 'Create team' : 'Create customer'}
        </GatedButton>
      }
    >
      <Tabs
        value={tab}
        onChange={(value) => {
          if (value && value !== tab) go({ tab: value as TeamsSearch['tab'] });
        }}
        keepMounted={false}
      >
        <Tabs.List>
          <Tabs.Tab value="teams">Teams</Tabs.Tab>
          <Tabs.Tab value="customers">Customers</Tabs.Tab>
        </Tabs.List>
      </Tabs>
      <Paper withBorder p="md" radius="md">
        <SearchForm
          value={search.search ?? ''}
          label={`Search ${noun} by name`}
          placeholder="Search by name"
          maxLength={255}
          onApply={(text) => go({ ...search, search: text, offset: 0 })}
        />
      </Paper>
      {list.isError && <ErrorAlert error={list.error} />}
      {list.isSuccess && matching.length === 0 && (
        // No table around nothing: an empty table that scrolls sideways on a phone is a scroll region with nothing
        // to focus.
        <Paper withBorder p="md" radius="md">
          {empty}
        </Paper>
      )}
      {!list.isError && !(list.isSuccess && matching.length === 0) && (
        <ServerTable
          label={tab === 'teams' ? 'Teams' : 'Customers'}
          columns={cols}
          rows={rows}
          rowId={(owner) => owner.id}
          total={matching.length}
          page={{ offset, limit }}
          onPage={(page) => go({ ...search, ...page })}
          onRowClick={(owner) => go({ ...search, open: owner.id })}
          rowProps={(owner) => ({ 'aria-current': owner.id === search.open || undefined })}
          loading={list.isPending}
          minWidth={760}
          empty={empty}
        />
      )}
      <OwnerDrawer
        kind={kind}
        openId={search.open}
        owner={openOwner}
        loading={list.isPending}
        onClose={() => go({ ...search, open: undefined })}
        onEdit={(owner) => setForm({ editing: owner })}
        onDelete={(owner) => void remove(owner)}
      />
      <OwnerFormModal
        kind={kind}
        opened={form !== undefined}
        editing={form?.editing}
        onClose={() => setForm(undefined)}
        onSaved={(saved) => {
          setForm(undefined);
          notifications.show({ color: 'green', message: `${ownerLabel(kind, saved.name)} saved` });
          void refresh();
        }}
      />
    </Page>
  );
}
