import { Button, Group, Paper, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { listVirtualKeysQuery } from '../../api/constraints.gen';
import { api, call } from '../../api/client';
import { describeError } from '../../api/errors';
import { GatedButton } from '../../shared/auth/permissions';
import { useApiForm } from '../../shared/forms/use-api-form';
import { ServerTable } from '../../shared/table/server-table';
import { useConfirm } from '../../shared/ui/confirm';
import { ErrorAlert } from '../../shared/ui/error-alert';
import { IconPlus, IconSearch } from '../../shared/ui/icons';
import { Page } from '../../shared/ui/page';
import { KeyValueModal } from './key-value-modal';
import { RotateModal } from './rotate-modal';
import { virtualKeysRoute } from './route';
import { virtualKeyColumns } from './virtual-key-columns';
import { VirtualKeyDrawer, type KeyActions } from './virtual-key-drawer';
import { VirtualKeyFormModal } from './virtual-key-form';
import type { VirtualKey } from './virtual-key-values';
import { virtualKeysQueryOf, virtualKeysSearchOf, type VirtualKeysSearch } from './virtual-keys-search';

/** The name search, checked against the list query's own constraints; applied on Enter. */
function SearchForm({ value, onApply }: { value: string; onApply: (search: string) => void }) {
  const { form, onSubmit } = useApiForm<{ search: string }>({
    initialValues: { search: value },
    constraints: listVirtualKeysQuery,
  });
  useEffect(() => form.setValues({ search: value }), [value]);
  return (
    <form onSubmit={onSubmit(async (values) => onApply(values.search.trim()))} noValidate aria-label="Search">
      <Group gap="xs" align="flex-start">
        <TextInput
          aria-label="Search by name"
          placeholder="Search by name"
          leftSection={<IconSearch size={16} aria-hidden />}
          style={{ flex: 1, maxWidth: 420 }}
          {...form.getInputProps('search')}
        />
        <Button type="submit" variant="default">
          Search
        </Button>
      </Group>
    </form>
  );
}

/**
 * Virtual keys: searched and paged by the API, created (the value shown once), edited (providers, models, budgets,
 * rate limit), rotated with a grace period, enabled or disabled, deleted; a key's budgets and limits as bars.
 */
export function VirtualKeysPage() {
  const search = virtualKeysRoute.useSearch();
  const navigate = virtualKeysRoute.useNavigate();
  const go = (next: VirtualKeysSearch, replace = false) =>
    void navigate({ search: virtualKeysSearchOf(next), replace });
  const queryClient = useQueryClient();
  const confirm = useConfirm();
  const query = virtualKeysQueryOf(search);
  const list = useQuery({
    queryKey: ['virtual-keys', 'list', query],
    queryFn: ({ signal }) => call(api.GET('/api/governance/virtual-keys', { params: { query }, signal })),
    placeholderData: keepPreviousData,
  });
  const [form, setForm] = useState<{ editing?: VirtualKey }>();
  const [rotating, setRotating] = useState<VirtualKey>();
  const [shown, setShown] = useState<{ name: string; value: string; rotated?: boolean }>();
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['virtual-keys'] });
  const fail = (error: unknown) => notifications.show({ color: 'red', ...describeError(error) });

  const actions: KeyActions = {
    edit: (key) => setForm({ editing: key }),
    rotate: setRotating,
    toggle: async (key) => {
      try {
        await call(
          api.PUT('/api/governance/virtual-keys/{vk_id}', {
            params: { path: { vk_id: key.id } },
            body: { is_active: !key.is_active },
          }),
        );
        notifications.show({ color: 'green', message: `${key.name} ${key.is_active ? 'disabled' : 'enabled'}` });
        await refresh();
      } catch (error) {
        fail(error);
      }
    },
    remove: async (key) => {
      const sure = await confirm({
        title: 'Delete virtual key',
        message: `Delete the virtual key ${key.name}? Applications using it are refused at once.`,
        confirmLabel: `Delete ${key.name}`,
        danger: true,
      });
      if (!sure) return;
      try {
        const done = await call(
          api.DELETE('/api/governance/virtual-keys/{vk_id}', { params: { path: { vk_id: key.id } } }),
        );
        notifications.show({ color: 'green', message: done.message });
        await navigate({ search: virtualKeysSearchOf({ ...search, key: undefined }), replace: true });
        // The key is gone: its detail and quota are dropped, not read again (a 404).
        queryClient.removeQueries({ queryKey: ['virtual-keys', 'detail', key.id] });
        queryClient.removeQueries({ queryKey: ['virtual-keys', 'quota', key.id] });
        await queryClient.invalidateQueries({ queryKey: ['virtual-keys', 'list'] });
      } catch (error) {
        fail(error);
      }
    },
  };
  const columns = useMemo(() => virtualKeyColumns((key) => go({ ...search, key: key.id })), [search]);

  return (
    <Page
      title="Virtual keys"
      description="The keys applications use, with their providers, budgets and rate limits."
      actions={
        <GatedButton
          permission="VirtualKeys:Create"
          leftSection={<IconPlus size={16} aria-hidden />}
          onClick={() => setForm({})}
        >
          Create virtual key
        </GatedButton>
      }
    >
      <Paper withBorder p="md" radius="md">
        <SearchForm value={search.search ?? ''} onApply={(text) => go({ ...search, search: text, offset: 0 })} />
      </Paper>
      {list.isError && <ErrorAlert error={list.error} />}
      {!list.isError && (
        <ServerTable
          label="Virtual keys"
          columns={columns}
          rows={list.data?.virtual_keys ?? []}
          rowId={(key) => key.id}
          total={list.data?.pagination.total_count ?? 0}
          page={{ offset: query.offset, limit: query.limit }}
          onPage={(page) => go({ ...search, ...page })}
          sort={{ by: query.sort_by, order: query.order }}
          onSort={(sort) =>
            go({ ...search, sort_by: sort.by as VirtualKeysSearch['sort_by'], order: sort.order, offset: 0 })
          }
          onRowClick={(key) => go({ ...search, key: key.id })}
          rowProps={(key) => ({ 'aria-current': key.id === search.key || undefined })}
          loading={list.isPending}
          minWidth={860}
          empty={
            <Text c="dimmed">
              {search.search
                ? 'No virtual key has a name like this.'
                : 'No virtual key yet. Create one for an application.'}
            </Text>
          }
        />
      )}
      <VirtualKeyDrawer id={search.key} onClose={() => go({ ...search, key: undefined })} actions={actions} />
      <VirtualKeyFormModal
        opened={form !== undefined}
        editing={form?.editing}
        onClose={() => setForm(undefined)}
        onSaved={(saved) => {
          setForm(undefined);
          if (saved.value) setShown({ name: saved.name, value: saved.value });
          else notifications.show({ color: 'green', message: `${saved.name} saved` });
          void refresh();
        }}
      />
      <RotateModal
        target={rotating}
        onClose={() => setRotating(undefined)}
        onRotated={(rotated) => {
          setRotating(undefined);
          if (rotated.value) setShown({ name: rotated.name, value: rotated.value, rotated: true });
          void refresh();
        }}
      />
      <KeyValueModal shown={shown} onClose={() => setShown(undefined)} />
    </Page>
  );
}
