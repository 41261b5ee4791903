import { Anchor, Badge, Drawer, Group, List, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { api, call } from '../../api/client';
import { GatedButton, useCaller, type Permission } from '../../shared/auth/permissions';
import { DateTime } from '../../shared/format/date-time';
import { ErrorAlert } from '../../shared/ui/error-alert';
import { IconPencil, IconTrash } from '../../shared/ui/icons';
import { LimitBars } from './limit-bars';
import { TeamCustomers } from './team-customers';
import { ownerLabel, type Owner, type OwnerKind, type Team } from './owner-helpers';

/** Pages of the virtual keys list read to find an owner's keys: the API has no owner filter. */
const KEYS_PAGE = 1000;
const KEYS_MAX_PAGES = 20;

/**
 * The virtual keys of a team or customer. `GET /api/governance/virtual-keys` takes no owner filter, so the list is
 * read a page of 1,000 at a time (at most 20,000 keys) and kept to the owner's.
 */
function useOwnerKeys(kind: OwnerKind, id: string) {
  return useQuery({
    queryKey: ['teams', 'keys', kind, id],
    queryFn: async ({ signal }) => {
      const found: Array<{ id: string; name: string; is_active: boolean }> = [];
      for (let page = 0; page < KEYS_MAX_PAGES; page++) {
        const list = await call(
          api.GET('/api/governance/virtual-keys', {
            params: { query: { limit: KEYS_PAGE, offset: page * KEYS_PAGE, sort_by: 'name', order: 'asc' } },
            signal,
          }),
        );
        for (const key of list.virtual_keys) {
          if ((kind === 'team' ? key.team_id : key.customer_id) === id)
            found.push({ id: key.id, name: key.name, is_active: key.is_active });
        }
        if ((page + 1) * KEYS_PAGE >= list.pagination.total_count) return { keys: found, complete: true };
      }
      return { keys: found, complete: false };
    },
  });
}

function OwnerKeys({ kind, id }: { kind: OwnerKind; id: string }) {
  const keys = useOwnerKeys(kind, id);
  if (keys.isError) return <ErrorAlert error={keys.error} />;
  if (!keys.data) return <Loader size="xs" aria-label="Loading its virtual keys" />;
  const { keys: list, complete } = keys.data;
  return (
    <Stack gap="xs">
      {list.length === 0 ? (
        <Text size="sm">
          No virtual key yet. A key gets an owner in its form on the{' '}
          <Anchor component={Link} to="/virtual-keys">
            virtual keys
          </Anchor>{' '}
          screen.
        </Text>
      ) : (
        <List size="sm" spacing={4} aria-label="Its virtual keys">
          {list.map((key) => (
            <List.Item key={key.id}>
              <Group gap="xs" wrap="nowrap">
                <Anchor component={Link} to="/virtual-keys" search={{ key: key.id } as never} size="sm">
                  {key.name}
                </Anchor>
                {!key.is_active && (
                  <Badge variant="outline" color="gray" tt="none" size="sm">
                    disabled
                  </Badge>
                )}
              </Group>
            </List.Item>
          ))}
        </List>
      )}
      {!complete && (
        <Text size="xs" c="dimmed">
          Only the first {(KEYS_PAGE * KEYS_MAX_PAGES).toLocaleString()} virtual keys were searched.
        </Text>
      )}
    </Stack>
  );
}

/** The teams a customer is linked to, by name (links are made and removed on the team). */
function CustomerTeams({ id }: { id: string }) {
  const linked = useQuery({
    queryKey: ['teams', 'links', 'customer', id],
    queryFn: async ({ signal }) =>
      (
        await call(
          api.GET('/api/governance/customers/{customer_id}/teams', { params: { path: { customer_id: id } }, signal }),
        )
      ).teams,
  });
  if (linked.isError) return <ErrorAlert error={linked.error} />;
  if (!linked.data) return <Loader size="xs" aria-label="Loading the links" />;
  return <>{linked.data.map((o) => o.name).join(', ') || 'None'}</>;
}

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

/** One team or customer: its budgets and limits as bars, its virtual keys, its links (a team's to change), its actions. */
export function OwnerDrawer({
  kind,
  openId,
  owner,
  loading,
  onClose,
  onEdit,
  onDelete,
}: {
  kind: OwnerKind;
  /** The open one's id (the URL's `open`), and the one itself once the list has it. */
  openId: string | undefined;
  owner: Owner | undefined;
  /** Whether the list is still being read. */
  loading: boolean;
  onClose: () => void;
  onEdit: (owner: Owner) => void;
  onDelete: (owner: Owner) => void;
}) {
  const resource = kind === 'team' ? 'Teams' : 'Customers';
  // Links between teams and customers are of the enterprise edition (its routes answer 404 in the open-source one).
  const links = useCaller().edition === 'enterprise';
  return (
    <Drawer
      opened={openId !== undefined}
      onClose={onClose}
      position="right"
      size="lg"
      title={owner ? ownerLabel(kind, owner.name) : kind === 'team' ? 'Team' : 'Customer'}
      closeButtonProps={{ 'aria-label': `Close the ${kind}` }}
      zIndex={190}
    >
      {!owner && loading && <Loader size="sm" aria-label={`Loading the ${kind}`} />}
      {!owner && !loading && <Text size="sm">No {kind} has this id: it may have been deleted.</Text>}
      {owner && (
        <Stack gap="lg">
          <Group gap="xs">
            <GatedButton
              permission={`${resource}:Update` as Permission}
              size="xs"
              variant="default"
              leftSection={<IconPencil size={14} aria-hidden />}
              onClick={() => onEdit(owner)}
            >
              Edit
            </GatedButton>
            <GatedButton
              permission={`${resource}:Delete` as Permission}
              size="xs"
              variant="default"
              color="red"
              leftSection={<IconTrash size={14} aria-hidden />}
              onClick={() => onDelete(owner)}
            >
              Delete
            </GatedButton>
          </Group>
          <Section title="Budgets and limits">
            <LimitBars owner={owner} />
          </Section>
          <Section title="Virtual keys">
            <OwnerKeys kind={kind} id={owner.id} />
          </Section>
          {links && kind === 'team' && (
            <Section title="Customers">
              <TeamCustomers team={owner as Team} />
            </Section>
          )}
          <Section title="Summary">
            <Table variant="vertical" layout="fixed" withTableBorder fz="sm">
              <Table.Tbody>
                {links && kind === 'customer' && (
                  <Table.Tr>
                    <Table.Th>Teams</Table.Th>
                    <Table.Td style={{ wordBreak: 'break-word' }}>
                      <CustomerTeams id={owner.id} />
                    </Table.Td>
                  </Table.Tr>
                )}
                <Table.Tr>
                  <Table.Th w={140}>Created</Table.Th>
                  <Table.Td>
                    <DateTime value={owner.created_at} />
                  </Table.Td>
                </Table.Tr>
                <Table.Tr>
                  <Table.Th>Updated</Table.Th>
                  <Table.Td>
                    <DateTime value={owner.updated_at} />
                  </Table.Td>
                </Table.Tr>
                <Table.Tr>
                  <Table.Th>Id</Table.Th>
                  <Table.Td style={{ wordBreak: 'break-all' }}>{owner.id}</Table.Td>
                </Table.Tr>
              </Table.Tbody>
            </Table>
          </Section>
        </Stack>
      )}
    </Drawer>
  );
}
