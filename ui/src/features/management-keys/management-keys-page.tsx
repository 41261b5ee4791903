import { Alert, Badge, Code, Group, Paper, Stack, Text, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import { api, call } from '../../api/client';
import { describeError } from '../../api/errors';
import { GatedButton, useCaller } from '../../shared/auth/permissions';
import { permissionSummary } from '../../shared/auth/permission-grid';
import { DateTime } from '../../shared/format/date-time';
import { ServerTable } from '../../shared/table/server-table';
import { useConfirm } from '../../shared/ui/confirm';
import { ErrorAlert } from '../../shared/ui/error-alert';
import { IconInfoCircle, IconPlus } from '../../shared/ui/icons';
import { Page } from '../../shared/ui/page';
import { ShownOnceModal } from '../../shared/ui/shown-once-modal';
import { useAuthStatus } from '../../shell/session/session';
import { KeyFormModal } from './key-form';
import { keyState, type ManagementKey } from './key-helpers';
import { EditDeleteButtons } from '../../shared/ui/edit-delete-buttons';

/** Rows per page: the API lists every key at once, so the paging is the screen's own. */
const PAGE = { offset: 0, limit: 50 };

function columns(edit: (key: ManagementKey) => void, remove: (key: ManagementKey) => void) {
  const cols: Array<ColumnDef<ManagementKey, unknown>> = [
    {
      id: 'name',
      header: 'Name',
      cell: ({ row }) => (
        <Group gap="xs" wrap="nowrap">
          <Text size="sm" fw={600} style={{ wordBreak: 'break-word' }}>
            {row.original.name}
          </Text>
          {keyState(row.original) === 'expired' && (
            <Badge variant="filled" color="red.8" tt="none" size="sm">
              expired
            </Badge>
          )}
        </Group>
      ),
    },
    {
      id: 'scopes',
      header: 'Scopes',
      cell: ({ row }) => (
        <Stack gap={2}>
          {permissionSummary(row.original.scopes).map((line) => (
            <Text key={line} size="xs">
              {line}
            </Text>
          ))}
          {row.original.scopes.length === 0 && (
            <Text size="xs" c="dimmed">
              None
            </Text>
          )}
        </Stack>
      ),
    },
    {
      id: 'expires_at',
      header: 'Expires',
      cell: ({ row }) => (
        <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
          {row.original.expires_at ? <DateTime value={row.original.expires_at} /> : 'Never'}
        </Text>
      ),
    },
    {
      id: 'last_used_at',
      header: 'Last used',
      cell: ({ row }) => (
        <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
          {row.original.last_used_at ? <DateTime value={row.original.last_used_at} /> : 'Never'}
        </Text>
      ),
    },
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
        <Group gap={4} wrap="nowrap" justify="flex-end">
          <EditDeleteButtons
            object={`key ${row.original.name}`}
            edit={{ permission: 'APIKeys:Update', onClick: () => edit(row.original) }}
            remove={{ permission: 'APIKeys:Delete', onClick: () => remove(row.original) }}
          />
        </Group>
      ),
    },
  ];
  return cols;
}

/**
 * Management API keys (both editions): scripts and CI call the management API with one (`Authorization: Bearer
 * gwm_…`). Listed with their scopes, expiry and last use (never their values); created with scopes ticked in the
 * permission grid, the value shown once; edited (name, scopes, expiry); deleted after a confirmation naming the key,
 * which stops it at once.
 */
export function ManagementKeysPage() {
  const queryClient = useQueryClient();
  const confirm = useConfirm();
  const { edition } = useCaller();
  const status = useAuthStatus();
  const [form, setForm] = useState<{ editing?: ManagementKey }>();
  const [created, setCreated] = useState<{ name: string; value: string }>();
  const [page, setPage] = useState(PAGE);

  const keys = useQuery({
    queryKey: ['management-keys'],
    queryFn: ({ signal }) => call(api.GET('/api/management-keys', { signal })),
  });
  const all = keys.data?.management_keys ?? [];
  const rows = all.slice(page.offset, page.offset + page.limit);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['management-keys'] });

  const remove = async (key: ManagementKey) => {
    const sure = await confirm({
      title: 'Delete management key',
      message: `Delete the management key ${key.name}? Every script using it is refused from now on; this cannot be undone.`,
      confirmLabel: `Delete ${key.name}`,
      danger: true,
    });
    if (!sure) return;
    try {
      const done = await call(api.DELETE('/api/management-keys/{id}', { params: { path: { id: key.id } } }));
      notifications.show({ color: 'green', message: done.message || `Deleted key ${key.name}` });
      await refresh();
    } catch (error) {
      notifications.show({ color: 'red', ...describeError(error) });
    }
  };
  const cols = useMemo(
    () =>
      columns(
        (key) => setForm({ editing: key }),
        (key) => void remove(key),
      ),
    [],
  );
  const empty = (
    <Text c="dimmed">No management key yet. Create one for a script or CI job that calls the management API.</Text>
  );

  return (
    <Page
      title="Management keys"
      description="Keys for scripts and CI calling the management API, each limited to its scopes."
      actions={
        <GatedButton
          permission="APIKeys:Create"
          leftSection={<IconPlus size={16} aria-hidden />}
          onClick={() => setForm({})}
        >
          Create key
        </GatedButton>
      }
    >
      {(edition !== 'enterprise' || status.data?.is_auth_enabled === false) && (
        <Alert
          role="note"
          variant="light"
          color="gray"
          icon={<IconInfoCircle size={18} aria-hidden />}
          title="Before you rely on a key"
        >
          <Stack gap={4}>
            {status.data?.is_auth_enabled === false && (
              <Text size="sm">
                Dashboard authentication is off, so the setup token guards every management route and keys are not
                accepted yet.
              </Text>
            )}
            {edition !== 'enterprise' && (
              <Text size="sm">
                The open-source edition does not enforce scopes: a key may call every management route.
              </Text>
            )}
          </Stack>
        </Alert>
      )}
      {keys.isError && <ErrorAlert error={keys.error} />}
      {keys.isSuccess && all.length === 0 && (
        <Paper withBorder p="md" radius="md">
          {empty}
        </Paper>
      )}
      {!keys.isError && !(keys.isSuccess && all.length === 0) && (
        <ServerTable
          label="Management keys"
          columns={cols}
          rows={rows}
          rowId={(key) => key.id}
          total={all.length}
          page={page}
          onPage={setPage}
          loading={keys.isPending}
          minWidth={860}
          empty={empty}
        />
      )}
      <KeyFormModal
        opened={form !== undefined}
        editing={form?.editing}
        onClose={() => setForm(undefined)}
        onCreated={(key) => {
          setForm(undefined);
          setCreated({ name: key.name, value: key.value });
          void refresh();
        }}
        onSaved={(saved) => {
          setForm(undefined);
          notifications.show({ color: 'green', message: `Key ${saved.name} saved` });
          void refresh();
        }}
      />
      <ShownOnceModal
        value={created?.value}
        title={`Management key ${created?.name ?? ''} created`}
        label="Management key value"
        warning="You will not see this value again: the gateway keeps only its hash. If it is lost, delete the key and create another."
        usage={
          <>
            Send it as <Code>Authorization: Bearer {'<key>'}</Code> to the management API (<Code>/api/…</Code>).
          </>
        }
        onClose={() => setCreated(undefined)}
      />
    </Page>
  );
}
