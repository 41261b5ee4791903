import { Group, Text } from '@mantine/core';
import { GatedButton, type Permission } from '../auth/permissions';
import { IconTrash } from './icons';
import { StatusBadge } from './status-badge';

/** The top of a log's drawer (request log or tool log): its status, its kind, and Delete when the caller may. */
export function LogDrawerHeader({
  row,
  kind,
  deletePermission,
  onDelete,
}: {
  row: { status: string; status_code?: number | null };
  kind: string | null | undefined;
  deletePermission: Permission;
  onDelete: () => void;
}) {
  return (
    <Group justify="space-between">
      <Group gap="xs">
        <StatusBadge row={row} />
        <Text size="sm" c="dimmed">
          {kind}
        </Text>
      </Group>
      <GatedButton
        permission={deletePermission}
        color="red"
        variant="light"
        size="xs"
        leftSection={<IconTrash size={14} aria-hidden />}
        onClick={onDelete}
      >
        Delete
      </GatedButton>
    </Group>
  );
}
