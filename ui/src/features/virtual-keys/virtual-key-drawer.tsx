import { Badge, Drawer, Group, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { api, call } from '../../api/client';
import { GatedButton } from '../../shared/auth/permissions';
import { DateTime } from '../../shared/format/date-time';
import { ErrorAlert } from '../../shared/ui/error-alert';
import { IconPencil, IconRotateClockwise, IconTrash } from '../../shared/ui/icons';
import { BudgetOverrides } from './budget-overrides';
import { QuotaBars } from './quota-bars';
import { grantsLine, providersLine, type VirtualKey } from './virtual-key-values';

/** The key's owner by name (`Team core`), read from the API; its id until then, or when it cannot be read. */
function OwnerName({ vk }: { vk: VirtualKey }) {
  const team = useQuery({
    queryKey: ['virtual-keys', 'owner', 'team', vk.team_id],
    queryFn: ({ signal }) =>
      call(api.GET('/api/governance/teams/{team_id}', { params: { path: { team_id: vk.team_id! } }, signal })),
    enabled: !!vk.team_id,
  });
  const customer = useQuery({
    queryKey: ['virtual-keys', 'owner', 'customer', vk.customer_id],
    queryFn: ({ signal }) =>
      call(
        api.GET('/api/governance/customers/{customer_id}', {
          params: { path: { customer_id: vk.customer_id! } },
          signal,
        }),
      ),
    enabled: !!vk.customer_id,
  });
  if (vk.team_id) return <>Team {team.data?.name ?? vk.team_id}</>;
  if (vk.customer_id) return <>Customer {customer.data?.name ?? vk.customer_id}</>;
  return <>None</>;
}

/** The key's MCP grants, clients by name (from `GET /api/mcp/clients`). */
function McpGrants({ vk }: { vk: VirtualKey }) {
  const clients = useQuery({
    queryKey: ['virtual-keys', 'mcp-clients', ''],
    queryFn: ({ signal }) => call(api.GET('/api/mcp/clients', { params: { query: { limit: 100 } }, signal })),
    enabled: vk.mcp_configs.length > 0,
  });
  const names = new Map((clients.data?.clients ?? []).map((c) => [c.id, c.name]));
  return <>{grantsLine(vk.mcp_configs, names)}</>;
}

/** Filled badges in shades whose white text passes WCAG AA in both schemes (as the logs' status badges). */
const ON_COLOR = '#1e6b30';
const OFF_COLOR = 'gray.7';

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack gap="xs" component="section" aria-label={title}>
      <Title order={3} size="h5">
        {title}
      </Title>
      {children}
    </Stack>
  );
}

export interface KeyActions {
  edit: (key: VirtualKey) => void;
  rotate: (key: VirtualKey) => void;
  toggle: (key: VirtualKey) => Promise<void>;
  remove: (key: VirtualKey) => Promise<void>;
}

/** One virtual key: its policy, its budgets and limits as bars, and what can be done to it. */
export function VirtualKeyDrawer({
  id,
  onClose,
  actions,
}: {
  id: string | undefined;
  onClose: () => void;
  actions: KeyActions;
}) {
  const key = useQuery({
    queryKey: ['virtual-keys', 'detail', id],
    queryFn: ({ signal }) =>
      call(api.GET('/api/governance/virtual-keys/{vk_id}', { params: { path: { vk_id: id! } }, signal })),
    enabled: id !== undefined,
  });
  const vk = key.data;
  return (
    <Drawer
      opened={id !== undefined}
      onClose={onClose}
      position="right"
      size="lg"
      title={vk ? `Virtual key ${vk.name}` : 'Virtual key'}
      closeButtonProps={{ 'aria-label': 'Close the virtual key' }}
      // Below the dialogs it opens (edit, rotate, the confirmation), which share the modals' default layer.
      zIndex={190}
    >
      {key.isError && <ErrorAlert error={key.error} />}
      {!vk && !key.isError && <Loader size="sm" aria-label="Loading the virtual key" />}
      {vk && (
        <Stack gap="lg">
          <Group gap="xs">
            <GatedButton
              permission="VirtualKeys:Update"
              size="xs"
              variant="default"
              leftSection={<IconPencil size={14} aria-hidden />}
              onClick={() => actions.edit(vk)}
            >
              Edit
            </GatedButton>
            <GatedButton
              permission="VirtualKeys:Update"
              size="xs"
              variant="default"
              leftSection={<IconRotateClockwise size={14} aria-hidden />}
              onClick={() => actions.rotate(vk)}
            >
              Rotate
            </GatedButton>
            <GatedButton
              permission="VirtualKeys:Update"
              size="xs"
              variant="default"
              onClick={() => void actions.toggle(vk)}
            >
              {vk.is_active ? 'Disable' : 'Enable'}
            </GatedButton>
            <GatedButton
              permission="VirtualKeys:Delete"
              size="xs"
              variant="default"
              color="red"
              leftSection={<IconTrash size={14} aria-hidden />}
              onClick={() => void actions.remove(vk)}
            >
              Delete
            </GatedButton>
          </Group>
          <Section title="Summary">
            <Table variant="vertical" layout="fixed" withTableBorder fz="sm">
              <Table.Tbody>
                <Table.Tr>
                  <Table.Th w={140}>State</Table.Th>
                  <Table.Td>
                    <Badge variant="filled" color={vk.is_active ? ON_COLOR : OFF_COLOR} tt="none">
                      {vk.is_active ? 'active' : 'disabled'}
                    </Badge>
                  </Table.Td>
                </Table.Tr>
                {vk.description && (
                  <Table.Tr>
                    <Table.Th>Description</Table.Th>
                    <Table.Td style={{ wordBreak: 'break-word' }}>{vk.description}</Table.Td>
                  </Table.Tr>
                )}
                <Table.Tr>
                  <Table.Th>Providers</Table.Th>
                  <Table.Td style={{ wordBreak: 'break-word' }}>{providersLine(vk)}</Table.Td>
                </Table.Tr>
                <Table.Tr>
                  <Table.Th>Owner</Table.Th>
                  <Table.Td style={{ wordBreak: 'break-word' }}>
                    <OwnerName vk={vk} />
                  </Table.Td>
                </Table.Tr>
                <Table.Tr>
                  <Table.Th>MCP clients</Table.Th>
                  <Table.Td style={{ wordBreak: 'break-word' }}>
                    <McpGrants vk={vk} />
                  </Table.Td>
                </Table.Tr>
                <Table.Tr>
                  <Table.Th>Value</Table.Th>
                  <Table.Td>
                    <Text size="sm" c="dimmed">
                      Shown once at creation and rotation
                    </Text>
                  </Table.Td>
                </Table.Tr>
                <Table.Tr>
                  <Table.Th>Expires</Table.Th>
                  <Table.Td>{vk.expires_at ? <DateTime value={vk.expires_at} /> : 'Never'}</Table.Td>
                </Table.Tr>
                <Table.Tr>
                  <Table.Th>Created</Table.Th>
                  <Table.Td>
                    <DateTime value={vk.created_at} />
                  </Table.Td>
                </Table.Tr>
                <Table.Tr>
                  <Table.Th>Id</Table.Th>
                  <Table.Td style={{ wordBreak: 'break-all' }}>{vk.id}</Table.Td>
                </Table.Tr>
              </Table.Tbody>
            </Table>
          </Section>
          <Section title="Budgets and limits">
            <QuotaBars keyId={vk.id} />
          </Section>
          <Section title="Budget overrides">
            <BudgetOverrides vk={vk} />
          </Section>
        </Stack>
      )}
    </Drawer>
  );
}
