import { Badge, Group, Paper, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../../api/client';
import { describeError } from '../../api/errors';
import { GatedButton } from '../../shared/auth/permissions';
import { useConfirm } from '../../shared/ui/confirm';
import { ErrorAlert } from '../../shared/ui/error-alert';
import { IconPencil, IconPlayerPlay, IconPlus, IconTrash } from '../../shared/ui/icons';
import { Page } from '../../shared/ui/page';
import { KeyFormModal } from './key-form';
import {
  headersLine,
  keyDetails,
  keysOf,
  secretSource,
  servedModels,
  type ProviderKeyView,
  type ProviderView,
} from './provider-helpers';
import { ProviderFormModal } from './provider-form';
import { TestDialog } from './test-dialog';

/** Filled badges in shades whose white text passes WCAG AA in both schemes (as the logs' status badges). */
const ON_COLOR = '#1e6b30';
const OFF_COLOR = 'gray.7';

type Dialog =
  | { kind: 'provider'; editing?: ProviderView }
  | { kind: 'key'; provider: string; editing?: ProviderKeyView }
  | { kind: 'test'; provider: string; keyId?: string };

const READ_ONLY = 'Declared in the config file: change it there';

function KeysTable({
  provider,
  keys,
  onEdit,
  onDelete,
  onTest,
}: {
  provider: ProviderView;
  keys: ProviderKeyView[];
  onEdit: (key: ProviderKeyView) => void;
  onDelete: (key: ProviderKeyView) => void;
  onTest: (key: ProviderKeyView) => void;
}) {
  if (keys.length === 0)
    return (
      <Text c="dimmed" size="sm">
        No key yet: requests to {provider.provider} have none to use.
      </Text>
    );
  return (
    <Table.ScrollContainer minWidth={720}>
      <Table verticalSpacing="xs" aria-label={`Keys of ${provider.provider}`}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Key</Table.Th>
            <Table.Th>Value</Table.Th>
            <Table.Th ta="right">Weight</Table.Th>
            <Table.Th>Serves</Table.Th>
            <Table.Th>State</Table.Th>
            <Table.Th>
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {keys.map((key) => {
            const readOnly = key.source === 'config';
            return (
              <Table.Tr key={key.id}>
                <Table.Td>
                  <Text size="sm" fw={600}>
                    {key.name}
                  </Text>
                  {keyDetails(key).map((line) => (
                    <Text key={line} size="xs" c="dimmed" style={{ wordBreak: 'break-word' }}>
                      {line}
                    </Text>
                  ))}
                </Table.Td>
                <Table.Td>
                  <Text size="sm" c="dimmed">
                    {secretSource(key.value)}
                  </Text>
                </Table.Td>
                <Table.Td ta="right">{key.weight}</Table.Td>
                <Table.Td style={{ wordBreak: 'break-word' }}>{servedModels(key)}</Table.Td>
                <Table.Td>
                  <Badge variant="filled" color={key.enabled ? ON_COLOR : OFF_COLOR} tt="none">
                    {key.enabled ? 'enabled' : 'disabled'}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  <Group gap={4} wrap="nowrap" justify="flex-end">
                    <GatedButton
                      permission="ModelProvider:Update"
                      size="compact-sm"
                      variant="subtle"
                      aria-label={`Test key ${key.name}`}
                      onClick={() => onTest(key)}
                    >
                      Test
                    </GatedButton>
                    <GatedButton
                      permission="ModelProvider:Update"
                      size="compact-sm"
                      variant="subtle"
                      aria-label={`Edit key ${key.name}`}
                      title={readOnly ? READ_ONLY : undefined}
                      disabled={readOnly}
                      onClick={() => onEdit(key)}
                    >
                      Edit
                    </GatedButton>
                    <GatedButton
                      permission="ModelProvider:Delete"
                      size="compact-sm"
                      variant="subtle"
                      color="red"
                      aria-label={`Delete key ${key.name}`}
                      title={readOnly ? READ_ONLY : undefined}
                      disabled={readOnly}
                      onClick={() => onDelete(key)}
                    >
                      Delete
                    </GatedButton>
                  </Group>
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function ProviderCard({
  provider,
  keys,
  open,
  remove,
  removeKey,
}: {
  provider: ProviderView;
  keys: ProviderKeyView[];
  open: (dialog: Dialog) => void;
  remove: (provider: ProviderView) => void;
  removeKey: (key: ProviderKeyView) => void;
}) {
  const readOnly = provider.source === 'config';
  const network = provider.network_config;
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby={`provider-${provider.provider}`}>
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" gap="sm">
          <div style={{ minWidth: 0 }}>
            <Group gap="xs">
              <Title order={2} size="h4" id={`provider-${provider.provider}`}>
                {provider.provider}
              </Title>
              {readOnly && (
                <Badge variant="outline" color="gray" tt="none" title={READ_ONLY}>
                  config file
                </Badge>
              )}
            </Group>
            <Text size="sm" c="dimmed" style={{ wordBreak: 'break-all' }}>
              {provider.base_url ?? 'Default base URL'}
            </Text>
            <Text size="xs" c="dimmed">
              Timeout {network.default_request_timeout} · {network.max_retries} retries · backoff{' '}
              {network.retry_backoff_initial} to {network.retry_backoff_max}
            </Text>
            {headersLine(provider.extra_headers) && (
              <Text size="xs" c="dimmed" style={{ wordBreak: 'break-word' }}>
                {headersLine(provider.extra_headers)}
              </Text>
            )}
          </div>
          <Group gap="xs">
            <GatedButton
              permission="ModelProvider:Update"
              variant="default"
              size="xs"
              leftSection={<IconPlayerPlay size={14} aria-hidden />}
              aria-label={`Test ${provider.provider}`}
              onClick={() => open({ kind: 'test', provider: provider.provider })}
            >
              Test
            </GatedButton>
            <GatedButton
              permission="ModelProvider:Create"
              variant="default"
              size="xs"
              leftSection={<IconPlus size={14} aria-hidden />}
              aria-label={`Add key to ${provider.provider}`}
              disabled={readOnly}
              onClick={() => open({ kind: 'key', provider: provider.provider })}
            >
              Add key
            </GatedButton>
            <GatedButton
              permission="ModelProvider:Update"
              variant="default"
              size="xs"
              leftSection={<IconPencil size={14} aria-hidden />}
              aria-label={`Edit ${provider.provider}`}
              disabled={readOnly}
              onClick={() => open({ kind: 'provider', editing: provider })}
            >
              Edit
            </GatedButton>
            <GatedButton
              permission="ModelProvider:Delete"
              variant="default"
              color="red"
              size="xs"
              leftSection={<IconTrash size={14} aria-hidden />}
              aria-label={`Delete ${provider.provider}`}
              disabled={readOnly}
              onClick={() => remove(provider)}
            >
              Delete
            </GatedButton>
          </Group>
        </Group>
        <KeysTable
          provider={provider}
          keys={keys}
          onEdit={(key) => open({ kind: 'key', provider: provider.provider, editing: key })}
          onDelete={removeKey}
          onTest={(key) => open({ kind: 'test', provider: provider.provider, keyId: key.id })}
        />
      </Stack>
    </Paper>
  );
}

/**
 * Providers and keys: every configured provider with its keys (values always redacted), add/edit/delete of both,
 * which models each key serves, and the test action (one small request, its answer or the provider's error).
 */
export function ProvidersPage() {
  const queryClient = useQueryClient();
  const confirm = useConfirm();
  const [dialog, setDialog] = useState<Dialog>();
  const providers = useQuery({
    queryKey: ['providers', 'list'],
    queryFn: ({ signal }) => call(api.GET('/api/providers', { signal })),
  });
  const keys = useQuery({
    queryKey: ['providers', 'keys'],
    queryFn: ({ signal }) => call(api.GET('/api/keys', { signal })),
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['providers'] });
  const close = () => setDialog(undefined);
  const done = (message: string) => {
    notifications.show({ color: 'green', message });
    close();
    void refresh();
  };
  const act = async (run: () => Promise<{ message: string }>) => {
    try {
      done((await run()).message);
    } catch (error) {
      notifications.show({ color: 'red', ...describeError(error) });
    }
  };
  const remove = async (provider: ProviderView) => {
    const sure = await confirm({
      title: 'Delete provider',
      message: `Delete the provider ${provider.provider} and its ${provider.key_count} key(s)? Requests to it will fail.`,
      confirmLabel: `Delete ${provider.provider}`,
      danger: true,
    });
    if (sure)
      await act(() =>
        call(api.DELETE('/api/providers/{provider}', { params: { path: { provider: provider.provider } } })),
      );
  };
  const removeKey = async (key: ProviderKeyView) => {
    const sure = await confirm({
      title: 'Delete key',
      message: `Delete the key ${key.name} of ${key.provider}?`,
      confirmLabel: `Delete ${key.name}`,
      danger: true,
    });
    if (sure)
      await act(() =>
        call(
          api.DELETE('/api/providers/{provider}/keys/{key_id}', {
            params: { path: { provider: key.provider, key_id: key.id } },
          }),
        ),
      );
  };
  const allKeys = keys.data?.keys ?? [];
  const list = providers.data?.providers ?? [];

  return (
    <Page
      title="Providers and keys"
      description="Model providers, their keys and network settings. Key values are never shown."
      actions={
        <GatedButton
          permission="ModelProvider:Create"
          leftSection={<IconPlus size={16} aria-hidden />}
          onClick={() => setDialog({ kind: 'provider' })}
        >
          Add provider
        </GatedButton>
      }
    >
      {providers.isError && <ErrorAlert error={providers.error} />}
      {keys.isError && <ErrorAlert error={keys.error} />}
      {providers.data && list.length === 0 && (
        <Paper withBorder p="xl" radius="md">
          <Text c="dimmed">No provider yet. Add one, then a key, and requests through /v1 can reach it.</Text>
        </Paper>
      )}
      {list.map((provider) => (
        <ProviderCard
          key={provider.provider}
          provider={provider}
          keys={keysOf(allKeys, provider.provider)}
          open={setDialog}
          remove={(p) => void remove(p)}
          removeKey={(k) => void removeKey(k)}
        />
      ))}
      <ProviderFormModal
        opened={dialog?.kind === 'provider'}
        editing={dialog?.kind === 'provider' ? dialog.editing : undefined}
        onClose={close}
        onSaved={(saved) => done(`Provider ${saved.provider} saved`)}
      />
      <KeyFormModal
        provider={dialog?.kind === 'key' ? dialog.provider : undefined}
        editing={dialog?.kind === 'key' ? dialog.editing : undefined}
        onClose={close}
        onSaved={(saved) => done(`Key ${saved.name} of ${saved.provider} saved`)}
      />
      <TestDialog
        provider={dialog?.kind === 'test' ? dialog.provider : undefined}
        keys={dialog?.kind === 'test' ? keysOf(allKeys, dialog.provider) : []}
        keyId={dialog?.kind === 'test' ? dialog.keyId : undefined}
        onClose={close}
      />
    </Page>
  );
}
