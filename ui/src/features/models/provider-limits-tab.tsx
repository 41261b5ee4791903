import { Button, Checkbox, Group, Modal, Paper, Select, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ProviderGovernanceRequest } from '../../api/constraints.gen';
import { api, call } from '../../api/client';
import { describeError } from '../../api/errors';
import { GatedButton } from '../../shared/auth/permissions';
import { useApiForm } from '../../shared/forms/use-api-form';
import { useConfirm } from '../../shared/ui/confirm';
import { ErrorAlert } from '../../shared/ui/error-alert';
import { IconPencil, IconPlus, IconTrash } from '../../shared/ui/icons';
import { LimitSummary } from '../teams/limit-bars';
import { LimitsFields } from './limits-fields';
import { PROVIDER_IDS } from './override-form';
import {
  providerLimitsProblems,
  providerLimitsRequest,
  providerLimitsValues,
  type ProviderGovernance,
  type ProviderLimitsValues,
} from './pricing-values';

const REFRESH_MS = 15_000;
type ProviderId = ProviderGovernance['provider'];

function ProviderLimitsForm({
  editing,
  taken,
  title,
  onCancel,
  onSaved,
}: {
  editing?: ProviderGovernance;
  /** Providers that have limits already (edited from their row). */
  taken: string[];
  title: string;
  onCancel: () => void;
  onSaved: (saved: ProviderGovernance) => void;
}) {
  const { form, formError, onSubmit } = useApiForm<ProviderLimitsValues>({
    initialValues: providerLimitsValues(editing),
    constraints: ProviderGovernanceRequest,
    toRequest: (values) => providerLimitsRequest(values),
    validate: providerLimitsProblems,
  });
  const submit = onSubmit(async (values) => {
    const saved = await call(
      api.PUT('/api/governance/providers/{provider}', {
        params: { path: { provider: values.provider as ProviderId } },
        body: providerLimitsRequest(values),
      }),
    );
    onSaved(saved.provider);
  });
  return (
    <form onSubmit={submit} noValidate aria-label={title}>
      <Stack gap="sm">
        <Select
          label="Provider"
          withAsterisk
          searchable
          disabled={!!editing}
          data={PROVIDER_IDS.filter((p) => p === editing?.provider || !taken.includes(p))}
          {...form.getInputProps('provider')}
        />
        <Checkbox
          label="Budgets reset on calendar boundaries by default"
          {...form.getInputProps('calendar_aligned', { type: 'checkbox' })}
        />
        <LimitsFields form={form} covers="every request sent to this provider, by any key" editing={!!editing} />
        {formError !== undefined && <ErrorAlert error={formError} />}
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={form.submitting}>
            Save provider limits
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * Provider governance (`GET /api/governance/providers`): budgets and a rate limit over everything sent to a provider,
 * whichever key or virtual key sends it; set (`PUT`, creating or replacing), removed after a confirmation naming the
 * provider.
 */
export function ProviderLimitsTab() {
  const list = useQuery({
    queryKey: ['models', 'provider-governance'],
    queryFn: ({ signal }) => call(api.GET('/api/governance/providers', { signal })),
    refetchInterval: REFRESH_MS,
  });
  const queryClient = useQueryClient();
  const confirm = useConfirm();
  const [form, setForm] = useState<{ editing?: ProviderGovernance }>();
  const rows = list.data?.providers ?? [];
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['models', 'provider-governance'] });
  const remove = async (pg: ProviderGovernance) => {
    const sure = await confirm({
      title: 'Remove provider limits',
      message: `Remove the budgets and rate limit of provider ${pg.provider}? Requests to it are then limited by virtual keys, teams and model configs only.`,
      confirmLabel: `Remove limits of ${pg.provider}`,
      danger: true,
    });
    if (!sure) return;
    try {
      const done = await call(
        api.DELETE('/api/governance/providers/{provider}', { params: { path: { provider: pg.provider } } }),
      );
      notifications.show({ color: 'green', message: done.message });
      await refresh();
    } catch (error) {
      notifications.show({ color: 'red', ...describeError(error) });
    }
  };
  const title = form?.editing ? `Edit limits of provider ${form.editing.provider}` : 'Set provider limits';

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-start" wrap="wrap">
        <Text size="sm" c="dimmed" maw={640}>
          Budgets and rate limits over everything sent to a provider, by any key: a cap on what the gateway spends
          there, beside each virtual key’s own.
        </Text>
        <GatedButton
          permission="Governance:Update"
          leftSection={<IconPlus size={16} aria-hidden />}
          onClick={() => setForm({})}
        >
          Set provider limits
        </GatedButton>
      </Group>
      {list.isError && <ErrorAlert error={list.error} />}
      {list.isSuccess && rows.length === 0 && (
        <Paper withBorder p="md" radius="md">
          <Text c="dimmed">No provider has budgets or rate limits of its own.</Text>
        </Paper>
      )}
      {rows.length > 0 && (
        <Paper withBorder radius="md" style={{ overflowX: 'auto' }}>
          <Table aria-label="Provider limits" miw={600} verticalSpacing="sm" highlightOnHover>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Provider</Table.Th>
                <Table.Th>Budgets and limits</Table.Th>
                <Table.Th>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((pg) => (
                <Table.Tr key={pg.provider}>
                  <Table.Td fw={600}>{pg.provider}</Table.Td>
                  <Table.Td>
                    <LimitSummary owner={pg} />
                  </Table.Td>
                  <Table.Td>
                    <Group gap={4} wrap="nowrap" justify="flex-end">
                      <GatedButton
                        permission="Governance:Update"
                        size="compact-sm"
                        variant="subtle"
                        leftSection={<IconPencil size={14} aria-hidden />}
                        aria-label={`Edit limits of provider ${pg.provider}`}
                        onClick={() => setForm({ editing: pg })}
                      >
                        Edit
                      </GatedButton>
                      <GatedButton
                        permission="Governance:Delete"
                        size="compact-sm"
                        variant="subtle"
                        color="red"
                        leftSection={<IconTrash size={14} aria-hidden />}
                        aria-label={`Remove limits of provider ${pg.provider}`}
                        onClick={() => void remove(pg)}
                      >
                        Remove
                      </GatedButton>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Paper>
      )}
      <Modal opened={form !== undefined} onClose={() => setForm(undefined)} title={title} size="lg">
        {form !== undefined && (
          <ProviderLimitsForm
            editing={form.editing}
            taken={rows.map((r) => r.provider)}
            title={title}
            onCancel={() => setForm(undefined)}
            onSaved={(saved) => {
              setForm(undefined);
              notifications.show({ color: 'green', message: `Limits of provider ${saved.provider} saved` });
              void refresh();
            }}
          />
        )}
      </Modal>
    </Stack>
  );
}
