import { Group, List, Loader, Select, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../../api/client';
import { describeError } from '../../api/errors';
import { GatedButton } from '../../shared/auth/permissions';
import { useConfirm } from '../../shared/ui/confirm';
import { ErrorAlert } from '../../shared/ui/error-alert';
import type { Team } from './owner-helpers';

/**
 * The customers a team is linked to (the enterprise edition), each with an unlink that asks first, and a picker that
 * links one more. Both change the team (`Teams:Update`); a refusal is shown with the API's message and the list stays.
 */
export function TeamCustomers({ team }: { team: Team }) {
  const queryClient = useQueryClient();
  const confirm = useConfirm();
  const [picked, setPicked] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const linked = useQuery({
    queryKey: ['teams', 'links', 'team', team.id],
    queryFn: async ({ signal }) =>
      (
        await call(
          api.GET('/api/governance/teams/{team_id}/customers', { params: { path: { team_id: team.id } }, signal }),
        )
      ).customers,
  });
  const customers = useQuery({
    queryKey: ['teams', 'list', 'customers'],
    queryFn: ({ signal }) => call(api.GET('/api/governance/customers', { signal })),
  });

  const change = async (action: () => Promise<unknown>, done: string) => {
    setBusy(true);
    try {
      await action();
      notifications.show({ color: 'green', message: done });
      setPicked(null);
      await queryClient.invalidateQueries({ queryKey: ['teams'] });
    } catch (error) {
      notifications.show({ color: 'red', ...describeError(error) });
    } finally {
      setBusy(false);
    }
  };
  const link = (customerId: string, name: string) =>
    change(
      () =>
        call(
          api.POST('/api/governance/teams/{team_id}/customers', {
            params: { path: { team_id: team.id } },
            body: { customer_id: customerId },
          }),
        ),
      `Linked the customer ${name} to the team ${team.name}`,
    );
  const unlink = async (customerId: string, name: string) => {
    const sure = await confirm({
      title: 'Unlink customer',
      message: `Unlink the customer ${name} from the team ${team.name}? Both stay, with their budgets and keys.`,
      confirmLabel: `Unlink ${name}`,
      danger: true,
    });
    if (!sure) return;
    await change(
      () =>
        call(
          api.DELETE('/api/governance/teams/{team_id}/customers/{customer_id}', {
            params: { path: { team_id: team.id, customer_id: customerId } },
          }),
        ),
      `Unlinked the customer ${name} from the team ${team.name}`,
    );
  };

  if (linked.isError) return <ErrorAlert error={linked.error} />;
  if (!linked.data) return <Loader size="xs" aria-label="Loading the linked customers" />;
  const linkedIds = new Set(linked.data.map((c) => c.id));
  const choices = (customers.data?.customers ?? [])
    .filter((c) => !linkedIds.has(c.id))
    .map((c) => ({ value: c.id, label: c.name }));
  const pickedName = choices.find((c) => c.value === picked)?.label ?? '';
  return (
    <Stack gap="xs">
      {linked.data.length === 0 ? (
        <Text size="sm">No customer linked.</Text>
      ) : (
        <List size="sm" spacing={4} aria-label="Linked customers">
          {linked.data.map((customer) => (
            <List.Item key={customer.id}>
              <Group gap="xs" wrap="nowrap">
                <Text size="sm">{customer.name}</Text>
                <GatedButton
                  permission="Teams:Update"
                  size="compact-xs"
                  variant="subtle"
                  color="red"
                  disabled={busy}
                  aria-label={`Unlink the customer ${customer.name}`}
                  onClick={() => void unlink(customer.id, customer.name)}
                >
                  Unlink
                </GatedButton>
              </Group>
            </List.Item>
          ))}
        </List>
      )}
      <Group gap="xs" align="flex-end">
        <Select
          label="Link a customer"
          placeholder={choices.length ? 'Pick a customer' : 'No other customer'}
          data={choices}
          value={picked}
          onChange={setPicked}
          searchable
          size="xs"
          disabled={choices.length === 0}
        />
        <GatedButton
          permission="Teams:Update"
          size="xs"
          variant="default"
          disabled={!picked || busy}
          onClick={() => picked && void link(picked, pickedName)}
        >
          Link
        </GatedButton>
      </Group>
    </Stack>
  );
}
