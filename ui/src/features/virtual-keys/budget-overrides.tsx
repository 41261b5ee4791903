import { Button, Group, Modal, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { BudgetOverrideRequest } from '../../api/constraints.gen';
import { api, call } from '../../api/client';
import { describeError } from '../../api/errors';
import type { Schema } from '../../api/schemas';
import { GatedButton } from '../../shared/auth/permissions';
import { DateTime } from '../../shared/format/date-time';
import { formatCost } from '../../shared/format/format';
import { useApiForm } from '../../shared/forms/use-api-form';
import { useConfirm } from '../../shared/ui/confirm';
import { ErrorAlert } from '../../shared/ui/error-alert';
import {
  budgetOverrideProblems,
  budgetOverrideRequest,
  budgetOverrideValues,
  overrideLine,
  type BudgetOverrideValues,
} from './budget-override-values';
import type { VirtualKey } from './virtual-key-values';

type Budget = Schema<'Budget'>;

/** A budget the override routes take: the key's own, or one of its provider configs'. */
interface KeyBudget {
  budget: Budget;
  /** `This key` or `Provider openai on this key`, as the quota bars name it. */
  owner: string;
}

function keyBudgets(vk: VirtualKey): KeyBudget[] {
  return [
    ...vk.budgets.map((budget) => ({ budget, owner: 'This key' })),
    ...vk.provider_configs.flatMap((pc) =>
      pc.budgets.map((budget) => ({ budget, owner: `Provider ${pc.provider} on this key` })),
    ),
  ];
}

function OverrideForm({
  vk,
  target,
  title,
  onCancel,
  onSaved,
}: {
  vk: VirtualKey;
  target: KeyBudget;
  title: string;
  onCancel: () => void;
  onSaved: () => void;
}) {
  const confirm = useConfirm();
  const { budget } = target;
  const { form, formError, onSubmit } = useApiForm<BudgetOverrideValues>({
    initialValues: budgetOverrideValues(budget.override),
    constraints: BudgetOverrideRequest,
    toRequest: (values) => budgetOverrideRequest(values),
    validate: budgetOverrideProblems,
  });
  const submit = onSubmit(async (values) => {
    const body = budgetOverrideRequest(values);
    const lasting = body.mode === 'forever' ? 'until it is ended' : `for ${body.cycles} window(s), this one first`;
    const sure = await confirm({
      title: 'Raise the budget',
      message: `Raise the ${budget.reset_duration} budget of virtual key ${vk.name} (${target.owner.toLowerCase()}) from ${formatCost(budget.max_limit)} to ${formatCost(budget.max_limit + body.amount)} ${lasting}?`,
      confirmLabel: `Raise the budget of ${vk.name}`,
    });
    if (!sure) return;
    await call(
      api.PUT('/api/governance/virtual-keys/{vk_id}/budgets/{budget_id}/override', {
        params: { path: { vk_id: vk.id, budget_id: budget.id } },
        body,
      }),
    );
    onSaved();
  });
  return (
    <form onSubmit={submit} noValidate aria-label={title}>
      <Stack gap="sm">
        <Text size="sm">
          The budget allows its limit ({formatCost(budget.max_limit)}) plus the amount, for ever or for a number of
          windows starting with the current one. A new override replaces the one in place.
        </Text>
        <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="sm">
          <TextInput label="Amount added (USD)" withAsterisk inputMode="decimal" {...form.getInputProps('amount')} />
          <Select
            label="Lasts"
            allowDeselect={false}
            data={[
              { value: 'cycles', label: 'For a number of windows' },
              { value: 'forever', label: 'Until ended' },
            ]}
            {...form.getInputProps('mode')}
          />
          {form.values.mode === 'cycles' && (
            <TextInput label="Windows" withAsterisk inputMode="numeric" {...form.getInputProps('cycles')} />
          )}
        </SimpleGrid>
        {formError !== undefined && <ErrorAlert error={formError} />}
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={form.submitting}>
            Raise budget
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * The key's own budgets and its provider configs' with their overrides: raise one (`PUT …/override`, after a
 * confirmation naming the key and the new limit) or end it (`DELETE …/override`). The bars above read the limit with
 * the override included.
 */
export function BudgetOverrides({ vk }: { vk: VirtualKey }) {
  const queryClient = useQueryClient();
  const confirm = useConfirm();
  const [editing, setEditing] = useState<KeyBudget>();
  const budgets = keyBudgets(vk);
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: ['virtual-keys', 'detail', vk.id] }),
      queryClient.invalidateQueries({ queryKey: ['virtual-keys', 'quota', vk.id] }),
    ]);
  const end = async ({ budget, owner }: KeyBudget) => {
    const sure = await confirm({
      title: 'End the override',
      message: `End the override of the ${budget.reset_duration} budget of virtual key ${vk.name} (${owner.toLowerCase()})? Its limit goes back to ${formatCost(budget.max_limit)} now.`,
      confirmLabel: `End the override of ${vk.name}`,
      danger: true,
    });
    if (!sure) return;
    try {
      await call(
        api.DELETE('/api/governance/virtual-keys/{vk_id}/budgets/{budget_id}/override', {
          params: { path: { vk_id: vk.id, budget_id: budget.id } },
        }),
      );
      notifications.show({
        color: 'green',
        message: `The ${budget.reset_duration} budget of ${vk.name} is back to its limit`,
      });
      await refresh();
    } catch (error) {
      notifications.show({ color: 'red', ...describeError(error) });
    }
  };
  if (budgets.length === 0) return <Text size="sm">This key has no budget of its own to raise.</Text>;
  const title = editing ? `Raise the ${editing.budget.reset_duration} budget of ${vk.name}` : '';
  return (
    <Stack gap="xs">
      {budgets.map((kb) => {
        const { budget, owner } = kb;
        const line = overrideLine(budget);
        const name = `${owner}: budget ${budget.reset_duration}`;
        return (
          <Group key={budget.id} justify="space-between" gap="xs" wrap="wrap" aria-label={name} role="group">
            <Stack gap={0}>
              <Text size="sm" fw={600}>
                {name}
              </Text>
              <Text size="xs" c="dimmed">
                Limit {formatCost(budget.max_limit)}
                {line ? ` · override ${line} (now ${formatCost(budget.effective_max_limit)})` : ' · no override'}
                {budget.override?.expires_at && (
                  <>
                    {' '}
                    · ends <DateTime value={budget.override.expires_at} />
                  </>
                )}
              </Text>
            </Stack>
            <Group gap={4}>
              <GatedButton
                permission="VirtualKeys:Update"
                size="compact-sm"
                variant="default"
                aria-label={`Raise ${name.toLowerCase()}`}
                onClick={() => setEditing(kb)}
              >
                {budget.override ? 'Change override' : 'Raise'}
              </GatedButton>
              {budget.override && (
                <GatedButton
                  permission="VirtualKeys:Update"
                  size="compact-sm"
                  variant="subtle"
                  color="red"
                  aria-label={`End the override of ${name.toLowerCase()}`}
                  onClick={() => void end(kb)}
                >
                  End override
                </GatedButton>
              )}
            </Group>
          </Group>
        );
      })}
      <Modal
        opened={editing !== undefined}
        onClose={() => setEditing(undefined)}
        title={title}
        // Above the drawer (190), below the confirmation it asks for (the modals' default layer, 200).
        zIndex={195}
      >
        {editing && (
          <OverrideForm
            vk={vk}
            target={editing}
            title={title}
            onCancel={() => setEditing(undefined)}
            onSaved={() => {
              setEditing(undefined);
              notifications.show({ color: 'green', message: `The budget of ${vk.name} is raised` });
              void refresh();
            }}
          />
        )}
      </Modal>
    </Stack>
  );
}
