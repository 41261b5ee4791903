import { Badge, Group, Paper, Tabs, Text, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import { api, call } from '../../api/client';
import { describeError } from '../../api/errors';
import { GatedButton, useCan } from '../../shared/auth/permissions';
import { DateTime } from '../../shared/format/date-time';
import { ServerTable } from '../../shared/table/server-table';
import { useConfirm } from '../../shared/ui/confirm';
import { EnterpriseOnly } from '../../shared/ui/enterprise-only';
import { ErrorAlert } from '../../shared/ui/error-alert';
import { IconPlus } from '../../shared/ui/icons';
import { Page } from '../../shared/ui/page';
import { SearchForm } from '../../shared/ui/search-form';
import { RoleDrawer } from './role-drawer';
import { RoleFormModal } from './role-form';
import { RolesTable } from './roles-table';
import { usersRoute } from './route';
import { UserFormModal } from './user-form';
import type { Role, User } from './users-helpers';
import { USERS_DEFAULTS, usersSearchOf, type UsersSearch } from './users-search';
import { EditDeleteButtons } from '../../shared/ui/edit-delete-buttons';

const TITLE = 'Users and roles';
const DESCRIPTION = 'Who signs in to the dashboard, and the roles whose permissions say what each one may do.';

/** Users and roles (enterprise; the open-source edition enforces no permissions, and its page says so). */
export function UsersPage() {
  return (
    <EnterpriseOnly
      title={TITLE}
      description={DESCRIPTION}
      detail="The open-source edition enforces no permissions: whoever signs in may do everything."
    >
      <UsersScreen />
    </EnterpriseOnly>
  );
}

function userColumns(
  roleName: (id: string) => string,
  edit: (user: User) => void,
  remove: (user: User) => void,
): Array<ColumnDef<User, unknown>> {
  return [
    {
      id: 'name',
      header: 'Name',
      cell: ({ row }) => (
        <Text size="sm" fw={600} style={{ wordBreak: 'break-word' }}>
          {row.original.name}
        </Text>
      ),
    },
    {
      id: 'email',
      header: 'Email',
      cell: ({ row }) => (
        <Text size="sm" style={{ wordBreak: 'break-all' }}>
          {row.original.email}
        </Text>
      ),
    },
    {
      id: 'role',
      header: 'Role',
      cell: ({ row }) => (
        <Badge variant="light" color="gray" tt="none">
          {roleName(row.original.role_id)}
        </Badge>
      ),
    },
    {
      id: 'created_at',
      header: 'Created',
      cell: ({ row }) => (
        <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
          <DateTime value={row.original.created_at} />
        </Text>
      ),
    },
    {
      id: 'actions',
      header: () => <VisuallyHidden>Actions</VisuallyHidden>,
      cell: ({ row }) => (
        <Group gap={4} wrap="nowrap" justify="flex-end">
          <EditDeleteButtons
            object={`user ${row.original.name}`}
            edit={{ permission: 'Users:Update', onClick: () => edit(row.original) }}
            remove={{ permission: 'Users:Delete', onClick: () => remove(row.original) }}
          />
        </Group>
      ),
    },
  ];
}

/**
 * Users (searched by name or email and paged on the screen: the API lists them whole) with their role; create, edit
 * (another role, a new password), delete after a confirmation naming the user. Roles with their permissions as a
 * grid (`role=` opens one); custom roles are created and edited by ticking the grid, and deleted after a confirmation
 * (a role someone still holds is refused by the API, whose message is shown). Built-in roles are read-only.
 */
function UsersScreen() {
  const search = usersRoute.useSearch();
  const navigate = usersRoute.useNavigate();
  const go = (next: UsersSearch, replace = false) => void navigate({ search: usersSearchOf(next), replace });
  const tab = search.tab ?? USERS_DEFAULTS.tab;
  const limit = search.limit ?? USERS_DEFAULTS.limit;
  const offset = search.offset ?? USERS_DEFAULTS.offset;
  const queryClient = useQueryClient();
  const confirm = useConfirm();
  const canViewRoles = useCan('RBAC:View');
  const [userForm, setUserForm] = useState<{ editing?: User }>();
  const [roleForm, setRoleForm] = useState<{ editing?: Role }>();

  // Users are read a page at a time, matching the search (the API filters and counts); roles whole, each with its
  // holders' count. Each list is read on its own tab, and roles on the users tab too when the caller may (role names).
  const users = useQuery({
    queryKey: ['users', 'users', search.search ?? '', offset, limit],
    queryFn: ({ signal }) =>
      call(
        api.GET('/api/governance/users', {
          params: { query: { limit, offset, ...(search.search ? { search: search.search } : {}) } },
          signal,
        }),
      ),
    enabled: tab === 'users',
    placeholderData: keepPreviousData,
  });
  const roles = useQuery({
    queryKey: ['users', 'roles'],
    queryFn: ({ signal }) => call(api.GET('/api/governance/rbac/roles', { signal })),
    enabled: tab === 'roles' || canViewRoles,
  });
  const rows = users.data?.users ?? [];
  const total = users.data?.total_count ?? 0;
  const allRoles = useMemo(() => roles.data?.roles ?? [], [roles.data]);
  const roleById = useMemo(() => new Map(allRoles.map((r) => [r.id, r])), [allRoles]);
  const holders = useMemo(
    () => (roles.data ? new Map(allRoles.map((r) => [r.id, r.user_count])) : undefined),
    [roles.data, allRoles],
  );
  const allPermissions = useMemo(() => [...new Set(allRoles.flatMap((r) => r.permissions))], [allRoles]);
  const openRole = search.role ? roleById.get(search.role) : undefined;

  const refresh = () => queryClient.invalidateQueries({ queryKey: ['users'] });

  const removeUser = async (user: User) => {
    const sure = await confirm({
      title: 'Delete user',
      message: `Delete the user ${user.name} (${user.email})? They can no longer sign in to the dashboard.`,
      confirmLabel: `Delete ${user.name}`,
      danger: true,
    });
    if (!sure) return;
    try {
      const done = await call(api.DELETE('/api/governance/users/{id}', { params: { path: { id: user.id } } }));
      notifications.show({ color: 'green', message: done.message || `Deleted user ${user.name}` });
      await refresh();
    } catch (error) {
      notifications.show({ color: 'red', ...describeError(error) });
    }
  };

  const removeRole = async (role: Role) => {
    const sure = await confirm({
      title: 'Delete role',
      message: `Delete the role ${role.name}? The gateway refuses while a user still holds it.`,
      confirmLabel: `Delete ${role.name}`,
      danger: true,
    });
    if (!sure) return;
    try {
      const done = await call(api.DELETE('/api/governance/rbac/roles/{id}', { params: { path: { id: role.id } } }));
      notifications.show({ color: 'green', message: done.message || `Deleted role ${role.name}` });
      if (search.role === role.id) go({ ...search, role: undefined }, true);
      await refresh();
    } catch (error) {
      notifications.show({ color: 'red', ...describeError(error), autoClose: 10_000 });
    }
  };

  const cols = useMemo(
    () =>
      userColumns(
        (id) => roleById.get(id)?.name ?? (roles.isPending && canViewRoles ? '…' : id),
        (user) => setUserForm({ editing: user }),
        (user) => void removeUser(user),
      ),
    [roleById, roles.isPending, canViewRoles],
  );

  const usersEmpty = (
    <Text c="dimmed">
      {search.search ? 'No user has a name or email like this.' : 'No user yet. Create one to let a person sign in.'}
    </Text>
  );

  return (
    <Page
      title={TITLE}
      description={DESCRIPTION}
      actions={
        tab === 'users' ? (
          <GatedButton
            permission="Users:Create"
            leftSection={<IconPlus size={16} aria-hidden />}
            onClick={() => setUserForm({})}
          >
            Create user
          </GatedButton>
        ) : (
          <GatedButton
            permission="RBAC:Create"
            leftSection={<IconPlus size={16} aria-hidden />}
            onClick={() => setRoleForm({})}
          >
            Create role
          </GatedButton>
        )
      }
    >
      <Tabs
        value={tab}
        onChange={(value) => {
          if (value && value !== tab) go({ tab: value as UsersSearch['tab'] });
        }}
        keepMounted={false}
      >
        <Tabs.List>
          <Tabs.Tab value="users">Users</Tabs.Tab>
          <Tabs.Tab value="roles">Roles</Tabs.Tab>
        </Tabs.List>
      </Tabs>

      {tab === 'users' && (
        <>
          <Paper withBorder p="md" radius="md">
            <SearchForm
              value={search.search ?? ''}
              label="Search users by name or email"
              placeholder="Search by name or email"
              maxLength={320}
              onApply={(text) => go({ ...search, search: text, offset: 0 })}
            />
          </Paper>
          {users.isError && <ErrorAlert error={users.error} />}
          {users.isSuccess && total === 0 && (
            <Paper withBorder p="md" radius="md">
              {usersEmpty}
            </Paper>
          )}
          {!users.isError && !(users.isSuccess && total === 0) && (
            <ServerTable
              label="Users"
              columns={cols}
              rows={rows}
              rowId={(user) => user.id}
              total={total}
              page={{ offset, limit }}
              onPage={(page) => go({ ...search, ...page })}
              loading={users.isPending}
              minWidth={760}
              empty={usersEmpty}
            />
          )}
        </>
      )}

      {tab === 'roles' && (
        <>
          {roles.isError && <ErrorAlert error={roles.error} />}
          {roles.isSuccess && (
            <RolesTable
              roles={allRoles}
              holders={holders}
              openId={search.role}
              onOpen={(role) => go({ ...search, role: role.id })}
              onEdit={(role) => setRoleForm({ editing: role })}
              onDelete={(role) => void removeRole(role)}
            />
          )}
        </>
      )}

      <RoleDrawer
        openId={search.role}
        role={openRole}
        holders={openRole && holders ? (holders.get(openRole.id) ?? 0) : undefined}
        allPermissions={allPermissions}
        loading={roles.isPending}
        onClose={() => go({ ...search, role: undefined })}
        onEdit={(role) => setRoleForm({ editing: role })}
        onDelete={(role) => void removeRole(role)}
      />
      <UserFormModal
        opened={userForm !== undefined}
        editing={userForm?.editing}
        roles={allRoles}
        onClose={() => setUserForm(undefined)}
        onSaved={(saved) => {
          setUserForm(undefined);
          notifications.show({ color: 'green', message: `User ${saved.name} saved` });
          void refresh();
        }}
      />
      <RoleFormModal
        opened={roleForm !== undefined}
        editing={roleForm?.editing}
        allPermissions={allPermissions}
        onClose={() => setRoleForm(undefined)}
        onSaved={(saved) => {
          setRoleForm(undefined);
          notifications.show({ color: 'green', message: `Role ${saved.name} saved` });
          void refresh();
        }}
      />
    </Page>
  );
}
