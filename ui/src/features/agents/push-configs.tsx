import { Paper, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api, call } from '../../api/client';
import { describeError } from '../../api/errors';
import type { Schema } from '../../api/schemas';
import { GatedButton } from '../../shared/auth/permissions';
import { DateTime } from '../../shared/format/date-time';
import { useConfirm } from '../../shared/ui/confirm';
import { ErrorAlert } from '../../shared/ui/error-alert';
import { IconTrash } from '../../shared/ui/icons';

type PushConfig = Schema<'PushConfigView'>;

/** The push notification configurations clients registered through the gateway (first 100), each deletable. */
export function PushConfigs() {
  const queryClient = useQueryClient();
  const confirm = useConfirm();
  const list = useQuery({
    queryKey: ['agents', 'push-configs'],
    queryFn: ({ signal }) =>
      call(api.GET('/api/agents/push-configs', { params: { query: { limit: 100, offset: 0 } }, signal })),
  });
  const remove = async (config: PushConfig) => {
    const label = `${config.config_id} of task ${config.task_id ?? '(none yet)'} on ${config.agent_name}`;
    const sure = await confirm({
      title: 'Delete push configuration',
      message: `Delete the push configuration ${label}? The gateway stops relaying that task's notifications to ${config.url}.`,
      confirmLabel: `Delete ${config.config_id}`,
      danger: true,
    });
    if (!sure) return;
    try {
      await call(
        api.DELETE('/api/agents/push-configs/{name}/{task_id}/{config_id}', {
          params: { path: { name: config.agent_name, task_id: config.task_id ?? '', config_id: config.config_id } },
        }),
      );
      notifications.show({ color: 'green', message: `Deleted push configuration ${config.config_id}` });
    } catch (error) {
      notifications.show({ color: 'red', ...describeError(error) });
    }
    await queryClient.invalidateQueries({ queryKey: ['agents', 'push-configs'] });
  };
  const configs = list.data?.push_configs ?? [];
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="push-configs">
      <Stack gap="sm">
        <Title order={2} size="h4" id="push-configs">
          Push configurations
        </Title>
        {list.isError ? (
          <ErrorAlert error={list.error} />
        ) : list.data && configs.length === 0 ? (
          <Text c="dimmed" size="sm">
            No push configuration. A client sets one with CreateTaskPushNotificationConfig through the gateway.
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={760}>
            <Table verticalSpacing="xs" aria-label="Push configurations">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Agent</Table.Th>
                  <Table.Th>Task</Table.Th>
                  <Table.Th>Config</Table.Th>
                  <Table.Th>Webhook URL</Table.Th>
                  <Table.Th>Token</Table.Th>
                  <Table.Th>Created</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>Actions</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {configs.map((config) => (
                  <Table.Tr key={config.id}>
                    <Table.Td>{config.agent_name}</Table.Td>
                    <Table.Td style={{ wordBreak: 'break-all' }}>{config.task_id ?? '—'}</Table.Td>
                    <Table.Td style={{ wordBreak: 'break-all' }}>{config.config_id}</Table.Td>
                    <Table.Td style={{ wordBreak: 'break-all' }}>{config.url}</Table.Td>
                    <Table.Td>{config.token ? 'Redacted' : '—'}</Table.Td>
                    <Table.Td>
                      <DateTime value={config.created_at} />
                    </Table.Td>
                    <Table.Td>
                      <GatedButton
                        permission="AgentGateway:Delete"
                        size="compact-sm"
                        variant="subtle"
                        color="red"
                        leftSection={<IconTrash size={14} aria-hidden />}
                        aria-label={`Delete push configuration ${config.config_id}`}
                        disabled={!config.task_id}
                        onClick={() => void remove(config)}
                      >
                        Delete
                      </GatedButton>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
    </Paper>
  );
}
