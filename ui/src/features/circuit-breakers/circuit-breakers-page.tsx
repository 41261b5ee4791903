import { Badge, Group, Paper, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../../api/client';
import { describeError } from '../../api/errors';
import { GatedButton } from '../../shared/auth/permissions';
import { DateTime } from '../../shared/format/date-time';
import { useConfirm } from '../../shared/ui/confirm';
import { EnterpriseOnly } from '../../shared/ui/enterprise-only';
import { ErrorAlert } from '../../shared/ui/error-alert';
import { IconPlus } from '../../shared/ui/icons';
import { Page } from '../../shared/ui/page';
import { circuitOf, conditionText, type OpenCircuit, type PolicyView } from './circuit-helpers';
import { PolicyFormModal } from './policy-form';
import { EditDeleteButtons } from '../../shared/ui/edit-delete-buttons';

/** Filled badges in shades whose white text passes WCAG AA in both schemes. */
const OPEN_COLOR = 'red.8';
const CLOSED_COLOR = '#1e6b30';

/** How often the open circuits are read again: a circuit opens and closes on the request path, not here. */
const STATE_REFRESH_MS = 3_000;

function circuitLabel(key: string): string {
  const { policy, keyId } = circuitOf(key);
  return keyId ? `${policy} (key ${keyId})` : policy;
}

function PoliciesTable({
  policies,
  open,
  onEdit,
  onDelete,
}: {
  policies: PolicyView[];
  open: Record<string, OpenCircuit>;
  onEdit: (policy: PolicyView) => void;
  onDelete: (policy: PolicyView) => void;
}) {
  return (
    <Table.ScrollContainer minWidth={860}>
      <Table verticalSpacing="xs" aria-label="Circuit breaker policies">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Policy</Table.Th>
            <Table.Th>Primary</Table.Th>
            <Table.Th>Fallback</Table.Th>
            <Table.Th>Trips on</Table.Th>
            <Table.Th>Cooldown</Table.Th>
            <Table.Th>Circuit</Table.Th>
            <Table.Th>
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {policies.map((policy) => {
            const isOpen = policy.name in open;
            return (
              <Table.Tr key={policy.name}>
                <Table.Td fw={600}>{policy.name}</Table.Td>
                <Table.Td>
                  {policy.primary_provider}/{policy.primary_model}
                  {policy.primary_key_ids.length > 0 && (
                    <Text size="xs" c="dimmed">
                      {policy.primary_key_ids.length} key(s) watched
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>
                  {policy.fallback_provider}/{policy.fallback_model}
                </Table.Td>
                <Table.Td style={{ wordBreak: 'break-word' }}>{conditionText(policy.condition)}</Table.Td>
                <Table.Td>
                  {policy.default_cooldown}
                  {policy.cooldown_header && (
                    <Text size="xs" c="dimmed">
                      or {policy.cooldown_header}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>
                  {policy.enabled ? (
                    <Badge variant="filled" color={isOpen ? OPEN_COLOR : CLOSED_COLOR} tt="none">
                      {isOpen ? 'open' : 'closed'}
                    </Badge>
                  ) : (
                    <Badge variant="outline" color="gray" tt="none">
                      disabled
                    </Badge>
                  )}
                </Table.Td>
                <Table.Td>
                  <Group gap={4} wrap="nowrap" justify="flex-end">
                    <EditDeleteButtons
                      object={`policy ${policy.name}`}
                      edit={{ permission: 'CircuitBreaker:Update', onClick: () => onEdit(policy) }}
                      remove={{ permission: 'CircuitBreaker:Delete', onClick: () => onDelete(policy) }}
                    />
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

function OpenCircuitsTable({
  circuits,
  onClose,
}: {
  circuits: Array<[string, OpenCircuit]>;
  onClose: (key: string) => void;
}) {
  if (circuits.length === 0)
    return (
      <Text c="dimmed" size="sm">
        Every circuit is closed: requests go to their primaries.
      </Text>
    );
  return (
    <Table.ScrollContainer minWidth={760}>
      <Table verticalSpacing="xs" aria-label="Open circuits">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Circuit</Table.Th>
            <Table.Th>State</Table.Th>
            <Table.Th>Open since</Table.Th>
            <Table.Th>Next probe</Table.Th>
            <Table.Th>Tripped by</Table.Th>
            <Table.Th>
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {circuits.map(([key, circuit]) => (
            <Table.Tr key={key}>
              <Table.Td fw={600}>{circuitLabel(key)}</Table.Td>
              <Table.Td>
                <Badge variant="filled" color={OPEN_COLOR} tt="none">
                  {circuit.status}
                </Badge>
              </Table.Td>
              <Table.Td>
                <DateTime value={circuit.opened_at} />
              </Table.Td>
              <Table.Td>
                <DateTime value={circuit.expires_at} />
              </Table.Td>
              <Table.Td style={{ wordBreak: 'break-word' }}>
                {circuit.signal.header_name}: {circuit.signal.header_value}
              </Table.Td>
              <Table.Td>
                <Group justify="flex-end">
                  <GatedButton
                    permission="CircuitBreaker:Delete"
                    size="compact-sm"
                    variant="subtle"
                    color="red"
                    aria-label={`Close circuit ${circuitLabel(key)}`}
                    onClick={() => onClose(key)}
                  >
                    Close
                  </GatedButton>
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/**
 * Circuit breakers (enterprise): the policies (a primary watched for header signals, the fallback serving while its
 * circuit is open), the circuits open now with since when and the next probe, and closing one by hand.
 */
export function CircuitBreakersPage() {
  return (
    <EnterpriseOnly title={TITLE} description={DESCRIPTION}>
      <CircuitBreakersScreen />
    </EnterpriseOnly>
  );
}

const TITLE = 'Circuit breakers';
const DESCRIPTION =
  'Policies that divert a primary to its fallback when its answers carry a signal, and the circuits open now.';

function CircuitBreakersScreen() {
  const queryClient = useQueryClient();
  const confirm = useConfirm();
  const [dialog, setDialog] = useState<{ editing?: PolicyView }>();
  const policies = useQuery({
    queryKey: ['circuit-breakers', 'policies'],
    queryFn: ({ signal }) => call(api.GET('/api/circuit-breaker/policies', { signal })),
  });
  const state = useQuery({
    queryKey: ['circuit-breakers', 'state'],
    queryFn: ({ signal }) => call(api.GET('/api/circuit-breaker/state', { signal })),
    refetchInterval: STATE_REFRESH_MS,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['circuit-breakers'] });
  const act = async (run: () => Promise<unknown>, done: string) => {
    try {
      await run();
      notifications.show({ color: 'green', message: done });
    } catch (error) {
      notifications.show({ color: 'red', ...describeError(error) });
    }
    await refresh();
  };
  const remove = async (policy: PolicyView) => {
    const sure = await confirm({
      title: 'Delete policy',
      message: `Delete the policy ${policy.name}? Its circuits close and requests go to ${policy.primary_provider}/${policy.primary_model} again.`,
      confirmLabel: `Delete ${policy.name}`,
      danger: true,
    });
    if (sure)
      await act(
        () => call(api.DELETE('/api/circuit-breaker/policies/{name}', { params: { path: { name: policy.name } } })),
        `Deleted ${policy.name}`,
      );
  };
  const closeCircuit = async (key: string) => {
    const label = circuitLabel(key);
    const sure = await confirm({
      title: 'Close circuit',
      message: `Close the circuit ${label} now? The next request goes to its primary, which may still be failing.`,
      confirmLabel: `Close ${label}`,
      danger: true,
    });
    if (sure)
      await act(
        () => call(api.DELETE('/api/circuit-breaker/state/{key}', { params: { path: { key } } })),
        `Closed ${label}`,
      );
  };
  const open = state.data?.circuits ?? {};
  const list = policies.data?.policies ?? [];

  return (
    <Page
      title={TITLE}
      description={DESCRIPTION}
      actions={
        <GatedButton
          permission="CircuitBreaker:Create"
          leftSection={<IconPlus size={16} aria-hidden />}
          onClick={() => setDialog({})}
        >
          Add policy
        </GatedButton>
      }
    >
      {policies.isError && <ErrorAlert error={policies.error} />}
      <Paper withBorder p="md" radius="md" component="section" aria-labelledby="open-circuits">
        <Stack gap="sm">
          <Title order={2} size="h4" id="open-circuits">
            Open circuits
          </Title>
          {state.isError ? (
            <ErrorAlert error={state.error} />
          ) : (
            <OpenCircuitsTable circuits={Object.entries(open)} onClose={(key) => void closeCircuit(key)} />
          )}
          <Text size="xs" c="dimmed">
            Read every {STATE_REFRESH_MS / 1000} s. The gateway keeps the state, not its history: past transitions are
            in the request logs (a diverted request's error is circuit_open) and in the metrics.
          </Text>
        </Stack>
      </Paper>
      <Paper withBorder p="md" radius="md" component="section" aria-labelledby="policies">
        <Stack gap="sm">
          <Title order={2} size="h4" id="policies">
            Policies
          </Title>
          {policies.data && list.length === 0 ? (
            <Text c="dimmed" size="sm">
              No policy yet.
            </Text>
          ) : (
            <PoliciesTable
              policies={list}
              open={open}
              onEdit={(policy) => setDialog({ editing: policy })}
              onDelete={(policy) => void remove(policy)}
            />
          )}
        </Stack>
      </Paper>
      <PolicyFormModal
        opened={dialog !== undefined}
        editing={dialog?.editing}
        onClose={() => setDialog(undefined)}
        onSaved={(saved) => {
          setDialog(undefined);
          notifications.show({ color: 'green', message: `Policy ${saved.name} saved` });
          void refresh();
        }}
      />
    </Page>
  );
}
