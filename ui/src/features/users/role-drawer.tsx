import { Alert, Drawer, Group, Loader, Stack, Text } from '@mantine/core';
import { GatedButton } from '../../shared/auth/permissions';
import { gridResources } from '../../shared/auth/permission-grid';
import { PermissionGrid } from '../../shared/auth/permission-grid-input';
import { DateTime } from '../../shared/format/date-time';
import { IconInfoCircle, IconPencil, IconTrash } from '../../shared/ui/icons';
import type { Role } from './users-helpers';

/** One role: what it is for, how many users hold it, its permissions as a read-only grid, and its actions. */
export function RoleDrawer({
  openId,
  role,
  holders,
  allPermissions,
  loading,
  onClose,
  onEdit,
  onDelete,
}: {
  /** The URL's `role`, and the role itself once the list has it. */
  openId: string | undefined;
  role: Role | undefined;
  holders: number | undefined;
  allPermissions: readonly string[];
  loading: boolean;
  onClose: () => void;
  onEdit: (role: Role) => void;
  onDelete: (role: Role) => void;
}) {
  return (
    <Drawer
      opened={openId !== undefined}
      onClose={onClose}
      position="right"
      size="lg"
      title={role ? `Role ${role.name}` : 'Role'}
      closeButtonProps={{ 'aria-label': 'Close the role' }}
      zIndex={190}
    >
      {!role && loading && <Loader size="sm" aria-label="Loading the role" />}
      {!role && !loading && <Text size="sm">No role has this id: it may have been deleted.</Text>}
      {role && (
        <Stack gap="md">
          {role.description && <Text size="sm">{role.description}</Text>}
          {role.is_builtin ? (
            <Alert role="note" variant="light" color="gray" icon={<IconInfoCircle size={18} aria-hidden />}>
              A built-in role: its permissions are fixed and it cannot be edited or deleted.
            </Alert>
          ) : (
            <Group gap="xs">
              <GatedButton
                permission="RBAC:Update"
                size="xs"
                variant="default"
                leftSection={<IconPencil size={14} aria-hidden />}
                onClick={() => onEdit(role)}
              >
                Edit
              </GatedButton>
              <GatedButton
                permission="RBAC:Delete"
                size="xs"
                variant="default"
                color="red"
                leftSection={<IconTrash size={14} aria-hidden />}
                onClick={() => onDelete(role)}
              >
                Delete
              </GatedButton>
            </Group>
          )}
          <Text size="sm">
            {holders === undefined
              ? ''
              : `Held by ${holders === 0 ? 'no user' : holders === 1 ? '1 user' : `${holders} users`}. `}
            {role.permissions.length === 1 ? '1 permission' : `${role.permissions.length} permissions`}. Updated{' '}
            <DateTime value={role.updated_at} />.
          </Text>
          <PermissionGrid
            label={`Permissions of role ${role.name}`}
            value={role.permissions}
            resources={gridResources(allPermissions, role.permissions)}
          />
        </Stack>
      )}
    </Drawer>
  );
}
