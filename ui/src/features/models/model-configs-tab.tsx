import { Group, Paper, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { api, call } from '../../api/client';
import { describeError } from '../../api/errors';
import { GatedButton } from '../../shared/auth/permissions';
import { useConfirm } from '../../shared/ui/confirm';
import { ErrorAlert } from '../../shared/ui/error-alert';
import { IconPlus } from '../../shared/ui/icons';
import { LimitSummary } from '../teams/limit-bars';
import { ModelConfigFormModal } from './model-config-form';
import { namesOf, useVirtualKeys } from './models-queries';
import { modelConfigLabel, type ModelConfig } from './pricing-values';
import { EditDeleteButtons } from '../../shared/ui/edit-delete-buttons';

/** Usage moves on the request path: the bars are read again this often. */
const REFRESH_MS = 15_000;

function coversLine(mc: ModelConfig, vkName: (id: string) => string | undefined): string {
  if (mc.scope === 'global') return 'Everyone';
  if (mc.scope === 'virtual_key') return `Virtual key ${vkName(mc.scope_id ?? '') ?? mc.scope_id}`;
  return `User ${mc.scope_id}`;
}

/**
 * Model configs (`GET /api/governance/model-configs`): budgets and rate limits over one model for everyone, a
 * virtual key or a user, as thin bars; created, edited, deleted after a confirmation naming the model.
 */
export function ModelConfigsTab() {
  const configs = useQuery({
    queryKey: ['models', 'model-configs'],
    queryFn: ({ signal }) => call(api.GET('/api/governance/model-configs', { signal })),
    refetchInterval: REFRESH_MS,
  });
  const virtualKeys = useVirtualKeys();
  const vkName = useMemo(() => namesOf(virtualKeys.data?.virtual_keys), [virtualKeys.data]);
  const queryClient = useQueryClient();
  const confirm = useConfirm();
  const [form, setForm] = useState<{ editing?: ModelConfig }>();
  const rows = useMemo(
    () =>
      [...(configs.data?.model_configs ?? [])].sort((a, b) => modelConfigLabel(a).localeCompare(modelConfigLabel(b))),
    [configs.data],
  );
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['models', 'model-configs'] });
  const remove = async (mc: ModelConfig) => {
    const label = modelConfigLabel(mc);
    const sure = await confirm({
      title: 'Delete model config',
      message: `Delete the model config ${label} (${coversLine(mc, vkName)})? Its budgets and rate limit go with it.`,
      confirmLabel: `Delete ${label}`,
      danger: true,
    });
    if (!sure) return;
    try {
      const done = await call(
        api.DELETE('/api/governance/model-configs/{mc_id}', { params: { path: { mc_id: mc.id } } }),
      );
      notifications.show({ color: 'green', message: done.message });
      await refresh();
    } catch (error) {
      notifications.show({ color: 'red', ...describeError(error) });
    }
  };

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-start" wrap="wrap">
        <Text size="sm" c="dimmed" maw={640}>
          Budgets and rate limits over one model (or every model), on one provider or all. Every matching config
          applies, beside the virtual key’s, team’s and provider’s own.
        </Text>
        <GatedButton
          permission="Governance:Create"
          leftSection={<IconPlus size={16} aria-hidden />}
          onClick={() => setForm({})}
        >
          Create model config
        </GatedButton>
      </Group>
      {configs.isError && <ErrorAlert error={configs.error} />}
      {configs.isSuccess && rows.length === 0 && (
        <Paper withBorder p="md" radius="md">
          <Text c="dimmed">No model config: no model has budgets or rate limits of its own.</Text>
        </Paper>
      )}
      {rows.length > 0 && (
        <Paper withBorder radius="md" style={{ overflowX: 'auto' }}>
          <Table aria-label="Model configs" miw={720} verticalSpacing="sm" highlightOnHover>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Model</Table.Th>
                <Table.Th>Covers</Table.Th>
                <Table.Th>Budgets and limits</Table.Th>
                <Table.Th>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((mc) => {
                const label = modelConfigLabel(mc);
                return (
                  <Table.Tr key={mc.id}>
                    <Table.Td fw={600} style={{ wordBreak: 'break-word' }}>
                      {label}
                    </Table.Td>
                    <Table.Td style={{ wordBreak: 'break-word' }}>{coversLine(mc, vkName)}</Table.Td>
                    <Table.Td>
                      <LimitSummary owner={mc} />
                    </Table.Td>
                    <Table.Td>
                      <Group gap={4} wrap="nowrap" justify="flex-end">
                        <EditDeleteButtons
                          object={`model config ${label}`}
                          edit={{ permission: 'Governance:Update', onClick: () => setForm({ editing: mc }) }}
                          remove={{ permission: 'Governance:Delete', onClick: () => void remove(mc) }}
                        />
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Paper>
      )}
      <ModelConfigFormModal
        opened={form !== undefined}
        editing={form?.editing}
        onClose={() => setForm(undefined)}
        onSaved={(saved) => {
          setForm(undefined);
          notifications.show({ color: 'green', message: `Model config ${modelConfigLabel(saved)} saved` });
          void refresh();
        }}
      />
    </Stack>
  );
}
