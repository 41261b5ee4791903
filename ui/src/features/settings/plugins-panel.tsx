import { ActionIcon, Button, Group, Modal, Stack, Switch, Table, Text, Textarea, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../../api/client';
import { ApiError, describeError } from '../../api/errors';
import { GatedButton, useCan } from '../../shared/auth/permissions';
import { ErrorAlert } from '../../shared/ui/error-alert';
import { IconArrowDown, IconArrowUp, IconPencil } from '../../shared/ui/icons';
import { configSummary, parseJsonObject, pluginMoves, type PluginView } from './settings-helpers';

const PLUGINS_KEY = ['settings', 'plugins'] as const;

/**
 * The plugins in chain order (`GET /api/plugins`): switched on or off, moved up or down (their `order`), and their
 * config edited as JSON (`PUT /api/plugins/{name}`), each change on every replica from the next request.
 */
export function PluginsPanel() {
  const queryClient = useQueryClient();
  const canUpdate = useCan('Plugins:Update');
  const [editing, setEditing] = useState<PluginView>();
  const [busy, setBusy] = useState(false);
  const plugins = useQuery({
    queryKey: PLUGINS_KEY,
    queryFn: ({ signal }) => call(api.GET('/api/plugins', { signal })),
  });
  const update = (name: string, body: { enabled?: boolean; order?: number; config?: Record<string, unknown> }) =>
    call(api.PUT('/api/plugins/{name}', { params: { path: { name } }, body }));
  const act = async (run: () => Promise<unknown>, done: string) => {
    setBusy(true);
    try {
      await run();
      notifications.show({ color: 'green', message: done });
    } catch (error) {
      notifications.show({ color: 'red', ...describeError(error) });
    } finally {
      setBusy(false);
      await queryClient.invalidateQueries({ queryKey: PLUGINS_KEY });
    }
  };
  const move = (list: PluginView[], index: number, direction: -1 | 1) => {
    const moves = pluginMoves(list, index, direction);
    const name = list[index]!.name;
    return act(
      async () => {
        for (const { name: each, order } of moves) await update(each, { order });
      },
      `Moved ${name} ${direction < 0 ? 'up' : 'down'}`,
    );
  };

  if (plugins.isError) return <ErrorAlert error={plugins.error} />;
  const list = plugins.data?.plugins ?? [];
  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        Lower order runs first. A switched-off plugin runs no hook; a built-in switch (logging, telemetry, cache) turns
        its feature off.
      </Text>
      <Table.ScrollContainer minWidth={640}>
        <Table verticalSpacing="xs" aria-label="Plugins">
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={70}>Order</Table.Th>
              <Table.Th>Plugin</Table.Th>
              <Table.Th>Enabled</Table.Th>
              <Table.Th>Config</Table.Th>
              <Table.Th>
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {list.map((plugin, index) => (
              <Table.Tr key={plugin.name}>
                <Table.Td>{plugin.order}</Table.Td>
                <Table.Td fw={600}>{plugin.name}</Table.Td>
                <Table.Td>
                  <Switch
                    aria-label={`Enable ${plugin.name}`}
                    checked={plugin.enabled}
                    disabled={!canUpdate || busy}
                    onChange={(event) => {
                      const enabled = event.currentTarget.checked;
                      void act(
                        () => update(plugin.name, { enabled }),
                        `${plugin.name} ${enabled ? 'enabled' : 'disabled'}`,
                      );
                    }}
                  />
                </Table.Td>
                <Table.Td>
                  <Text ff="monospace" size="xs" style={{ wordBreak: 'break-all' }} lineClamp={2}>
                    {configSummary(plugin.config)}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Group gap={4} wrap="nowrap" justify="flex-end">
                    <ActionIcon
                      variant="subtle"
                      aria-label={`Move ${plugin.name} up`}
                      disabled={!canUpdate || busy || index === 0}
                      onClick={() => void move(list, index, -1)}
                    >
                      <IconArrowUp size={16} aria-hidden />
                    </ActionIcon>
                    <ActionIcon
                      variant="subtle"
                      aria-label={`Move ${plugin.name} down`}
                      disabled={!canUpdate || busy || index === list.length - 1}
                      onClick={() => void move(list, index, 1)}
                    >
                      <IconArrowDown size={16} aria-hidden />
                    </ActionIcon>
                    <GatedButton
                      permission="Plugins:Update"
                      size="compact-sm"
                      variant="subtle"
                      leftSection={<IconPencil size={14} aria-hidden />}
                      aria-label={`Edit config of ${plugin.name}`}
                      onClick={() => setEditing(plugin)}
                    >
                      Config
                    </GatedButton>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Modal
        opened={editing !== undefined}
        onClose={() => setEditing(undefined)}
        title={editing ? `Config of ${editing.name}` : ''}
        size="lg"
      >
        {editing && (
          <PluginConfigForm
            plugin={editing}
            onCancel={() => setEditing(undefined)}
            onSaved={(saved) => {
              setEditing(undefined);
              notifications.show({ color: 'green', message: `Config of ${saved.name} saved` });
              void queryClient.invalidateQueries({ queryKey: PLUGINS_KEY });
            }}
          />
        )}
      </Modal>
    </Stack>
  );
}

/** The whole config as a JSON object; the plugin checks it, and its refusal (`config.<key>`) shows at the field. */
function PluginConfigForm({
  plugin,
  onCancel,
  onSaved,
}: {
  plugin: PluginView;
  onCancel: () => void;
  onSaved: (plugin: PluginView) => void;
}) {
  const [text, setText] = useState(JSON.stringify(plugin.config, null, 2));
  const [problem, setProblem] = useState<string>();
  const [formError, setFormError] = useState<unknown>();
  const [saving, setSaving] = useState(false);
  const submit = async () => {
    setFormError(undefined);
    const parsed = parseJsonObject(text);
    if ('error' in parsed) {
      setProblem(parsed.error);
      return;
    }
    setProblem(undefined);
    setSaving(true);
    try {
      onSaved(
        await call(
          api.PUT('/api/plugins/{name}', { params: { path: { name: plugin.name } }, body: { config: parsed.value } }),
        ),
      );
    } catch (error) {
      if (error instanceof ApiError && error.param?.startsWith('config'))
        setProblem(`${error.param}: ${error.message}`);
      else setFormError(error);
    } finally {
      setSaving(false);
    }
  };
  return (
    <form
      aria-label={`Config of ${plugin.name}`}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <Stack gap="sm">
        <Textarea
          label="Config (JSON object)"
          description="Replaces the whole config"
          autosize
          minRows={6}
          maxRows={20}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          value={text}
          error={problem}
          onChange={(event) => setText(event.currentTarget.value)}
        />
        {formError !== undefined && <ErrorAlert error={formError} />}
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={saving}>
            Save config
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
