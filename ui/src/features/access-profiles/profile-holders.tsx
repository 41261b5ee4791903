import { Badge, Checkbox, Group, Select, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../../api/client';
import { describeError } from '../../api/errors';
import type { Schema } from '../../api/schemas';
import { GatedButton } from '../../shared/auth/permissions';
import { DateTime } from '../../shared/format/date-time';
import { useConfirm } from '../../shared/ui/confirm';
import { ErrorAlert } from '../../shared/ui/error-alert';
import { KeyValueModal } from '../virtual-keys/key-value-modal';
import type { ProfileView } from './profile-helpers';

type Detail = Schema<'AccessProfileDetailResponse'>;

/**
 * Role defaults: the roles attached to the template (a default role gives its new users a copy), attach with
 * "apply to existing", detach with a confirmation.
 */
export function RoleDefaults({ profile, detail }: { profile: ProfileView; detail: Detail | undefined }) {
  const queryClient = useQueryClient();
  const confirm = useConfirm();
  const roles = useQuery({
    queryKey: ['rbac-roles'],
    queryFn: ({ signal }) => call(api.GET('/api/governance/rbac/roles', { signal })),
  });
  const [roleId, setRoleId] = useState<string | null>(null);
  const [isDefault, setIsDefault] = useState(true);
  const [applyNow, setApplyNow] = useState(true);
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['access-profiles'] });
  const attach = async () => {
    if (!roleId) return;
    setBusy(true);
    setError(undefined);
    try {
      const answer = await call(
        api.POST('/api/governance/access-profiles/{profile_id}/roles', {
          params: { path: { profile_id: profile.id } },
          body: { role_ids: [roleId], is_default: isDefault, apply_to_existing: applyNow },
        }),
      );
      notifications.show({
        color: 'green',
        message: `Role attached; ${answer.users_applied} ${answer.users_applied === 1 ? 'user' : 'users'} got a copy`,
      });
      setRoleId(null);
      await refresh();
    } catch (refused) {
      setError(refused);
    } finally {
      setBusy(false);
    }
  };
  const detach = async (role: Schema<'AccessProfileRole'>) => {
    const sure = await confirm({
      title: 'Detach role',
      message: `Detach the role ${role.role_name} from ${profile.name}? The copies it already gave stay with their users.`,
      confirmLabel: `Detach ${role.role_name}`,
      danger: true,
    });
    if (!sure) return;
    try {
      await call(
        api.DELETE('/api/governance/access-profiles/{profile_id}/roles/{role_id}', {
          params: { path: { profile_id: profile.id, role_id: role.role_id } },
        }),
      );
      notifications.show({ color: 'green', message: `Detached ${role.role_name}` });
    } catch (refused) {
      notifications.show({ color: 'red', ...describeError(refused) });
    }
    await refresh();
  };
  const attached = detail?.roles ?? [];
  return (
    <Stack gap="sm">
      <Title order={3} size="h5">
        Role defaults
      </Title>
      {attached.length === 0 ? (
        <Text size="sm" c="dimmed">
          No role attached.
        </Text>
      ) : (
        <Table verticalSpacing={4} aria-label="Attached roles">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Role</Table.Th>
              <Table.Th>Default for its users</Table.Th>
              <Table.Th>
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {attached.map((role) => (
              <Table.Tr key={role.role_id}>
                <Table.Td>{role.role_name}</Table.Td>
                <Table.Td>{role.is_default ? 'yes' : 'no'}</Table.Td>
                <Table.Td>
                  <Group justify="flex-end">
                    <GatedButton
                      permission="AccessProfiles:Delete"
                      size="compact-sm"
                      variant="subtle"
                      color="red"
                      aria-label={`Detach role ${role.role_name}`}
                      onClick={() => void detach(role)}
                    >
                      Detach
                    </GatedButton>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <Group gap="sm" align="flex-end" wrap="wrap">
        <Select
          label="Role"
          placeholder="Pick a role"
          data={(roles.data?.roles ?? []).map((r) => ({ value: r.id, label: r.name }))}
          value={roleId}
          onChange={setRoleId}
          searchable
          w={220}
        />
        <Checkbox
          label="Default for the role's users"
          checked={isDefault}
          onChange={(e) => setIsDefault(e.currentTarget.checked)}
        />
        <Checkbox
          label="Give a copy now to its current users"
          checked={applyNow}
          onChange={(e) => setApplyNow(e.currentTarget.checked)}
        />
        <GatedButton permission="AccessProfiles:Create" disabled={!roleId} loading={busy} onClick={() => void attach()}>
          Attach role
        </GatedButton>
      </Group>
      {error !== undefined && <ErrorAlert error={error} onClose={() => setError(undefined)} />}
    </Stack>
  );
}

/**
 * One user's copies of access profiles (the API lists copies per user): assign this template to them (its managed
 * key's value shown once), or remove a copy with its keys after a confirmation.
 */
export function UserCopies({ profile }: { profile: ProfileView }) {
  const queryClient = useQueryClient();
  const confirm = useConfirm();
  const [userId, setUserId] = useState<string | null>(null);
  const [shownKey, setShownKey] = useState<{ name: string; value: string }>();
  const [error, setError] = useState<unknown>();
  const users = useQuery({
    queryKey: ['users'],
    queryFn: ({ signal }) => call(api.GET('/api/governance/users', { signal })),
  });
  const copies = useQuery({
    queryKey: ['access-profiles', 'user', userId],
    enabled: userId !== null,
    queryFn: ({ signal }) =>
      call(
        api.GET('/api/governance/users/{user_id}/access-profiles', {
          params: { path: { user_id: userId! } },
          signal,
        }),
      ),
  });
  const userOptions = (users.data?.users ?? []).map((u) => ({ value: u.id, label: `${u.name} (${u.email})` }));
  const userName = userOptions.find((u) => u.value === userId)?.label ?? userId ?? '';
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['access-profiles'] });
  const holds = (copies.data?.access_profiles ?? []).some((c) => c.parent_profile_id === profile.id);

  const assign = async () => {
    if (!userId) return;
    setError(undefined);
    try {
      const answer = await call(
        api.POST('/api/governance/users/{user_id}/access-profiles', {
          params: { path: { user_id: userId } },
          body: { profile_id: profile.id },
        }),
      );
      if (answer.virtual_key.value) setShownKey({ name: answer.virtual_key.name, value: answer.virtual_key.value });
      await refresh();
    } catch (refused) {
      setError(refused);
    }
  };
  const remove = async (copy: Schema<'UserAccessProfile'>) => {
    const sure = await confirm({
      title: 'Remove copy',
      message: `Remove ${userName}'s copy of ${copy.name}? Its ${copy.virtual_key_ids.length} managed key(s) stop working at once.`,
      confirmLabel: `Remove ${copy.name} from this user`,
      danger: true,
    });
    if (!sure) return;
    try {
      const answer = await call(
        api.DELETE('/api/governance/users/{user_id}/access-profiles/{profile_id}', {
          params: { path: { user_id: copy.user_id, profile_id: copy.parent_profile_id } },
        }),
      );
      notifications.show({ color: 'green', message: answer.message });
    } catch (refused) {
      notifications.show({ color: 'red', ...describeError(refused) });
    }
    await refresh();
  };

  return (
    <Stack gap="sm">
      <Title order={3} size="h5">
        Users&apos; copies
      </Title>
      <Text size="sm" c="dimmed">
        Each user holds a copy of the template with managed keys built from it; a copy changes only through a
        propagation.
      </Text>
      {users.isError && <ErrorAlert error={users.error} />}
      <Group gap="sm" align="flex-end" wrap="wrap">
        <Select
          label="User"
          placeholder="Search a user"
          data={userOptions}
          value={userId}
          onChange={(value) => {
            setUserId(value);
            setError(undefined);
          }}
          searchable
          limit={50}
          w={320}
          nothingFoundMessage="No such user"
        />
        <GatedButton
          permission="AccessProfiles:Create"
          disabled={!userId || holds || !profile.is_active}
          onClick={() => void assign()}
        >
          Give this user a copy
        </GatedButton>
      </Group>
      {holds && (
        <Text size="sm" c="dimmed">
          This user already holds a copy of {profile.name}.
        </Text>
      )}
      {!profile.is_active && (
        <Text size="sm" c="dimmed">
          An inactive template cannot be given to anyone; activate it first.
        </Text>
      )}
      {error !== undefined && <ErrorAlert error={error} onClose={() => setError(undefined)} />}
      {copies.isError && <ErrorAlert error={copies.error} />}
      {userId && copies.data && (
        <Table.ScrollContainer minWidth={620}>
          <Table verticalSpacing={4} aria-label={`Copies of ${userName}`}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Copy of</Table.Th>
                <Table.Th>Assigned</Table.Th>
                <Table.Th>Managed keys</Table.Th>
                <Table.Th>Since</Table.Th>
                <Table.Th>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {copies.data.access_profiles.length === 0 && (
                <Table.Tr>
                  <Table.Td colSpan={5}>
                    <Text size="sm" c="dimmed">
                      This user holds no copy.
                    </Text>
                  </Table.Td>
                </Table.Tr>
              )}
              {copies.data.access_profiles.map((copy) => (
                <Table.Tr key={copy.id}>
                  <Table.Td>
                    {copy.name}
                    {copy.parent_profile_id === profile.id && (
                      <Badge ml="xs" variant="light" tt="none">
                        this template
                      </Badge>
                    )}
                  </Table.Td>
                  <Table.Td>{copy.assigned_via === 'role' ? 'by role' : 'directly'}</Table.Td>
                  <Table.Td ff="monospace" fz="sm">
                    {copy.virtual_key_values.join(', ') || '—'}
                  </Table.Td>
                  <Table.Td>
                    <DateTime value={copy.created_at} />
                  </Table.Td>
                  <Table.Td>
                    <Group justify="flex-end">
                      <GatedButton
                        permission="AccessProfiles:Delete"
                        size="compact-sm"
                        variant="subtle"
                        color="red"
                        aria-label={`Remove copy of ${copy.name}`}
                        onClick={() => void remove(copy)}
                      >
                        Remove
                      </GatedButton>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <KeyValueModal shown={shownKey} onClose={() => setShownKey(undefined)} />
    </Stack>
  );
}
