import { Badge, Group, Paper, Table, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { permissionSummary } from '../../shared/auth/permission-grid';
import type { Role } from './users-helpers';
import { EditDeleteButtons } from '../../shared/ui/edit-delete-buttons';

/** Roles, built-in ones first (the API's order): name, what they grant in a line, holders, actions. */
export function RolesTable({
  roles,
  holders,
  openId,
  onOpen,
  onEdit,
  onDelete,
}: {
  roles: readonly Role[];
  /** Users per role id; undefined when the caller may not list users. */
  holders: ReadonlyMap<string, number> | undefined;
  openId: string | undefined;
  onOpen: (role: Role) => void;
  onEdit: (role: Role) => void;
  onDelete: (role: Role) => void;
}) {
  return (
    <Paper withBorder radius="md">
      <Table.ScrollContainer minWidth={760}>
        <Table aria-label="Roles" verticalSpacing="sm" highlightOnHover>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th>Permissions</Table.Th>
              {holders && <Table.Th>Users</Table.Th>}
              <Table.Th>
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {roles.map((role) => (
              <Table.Tr key={role.id} aria-current={role.id === openId || undefined}>
                <Table.Td>
                  <Group gap="xs" wrap="nowrap">
                    <UnstyledButton
                      fw={600}
                      fz="sm"
                      onClick={() => onOpen(role)}
                      aria-label={`Open role ${role.name}`}
                      style={{ wordBreak: 'break-word' }}
                    >
                      {role.name}
                    </UnstyledButton>
                    {role.is_builtin && (
                      <Badge variant="outline" color="gray" tt="none" size="sm">
                        built-in
                      </Badge>
                    )}
                  </Group>
                  {role.description && (
                    <Text size="xs" c="dimmed" style={{ wordBreak: 'break-word' }}>
                      {role.description}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>
                  <Text size="sm">
                    {role.permissions.length === 0
                      ? 'None'
                      : role.permissions.length === 1
                        ? '1 permission'
                        : `${role.permissions.length} permissions`}
                  </Text>
                  <Text size="xs" c="dimmed" lineClamp={2}>
                    {permissionSummary(role.permissions).join(' · ')}
                  </Text>
                </Table.Td>
                {holders && <Table.Td>{holders.get(role.id) ?? 0}</Table.Td>}
                <Table.Td>
                  <Group gap={4} wrap="nowrap" justify="flex-end">
                    {role.is_builtin ? (
                      <Text size="xs" c="dimmed">
                        Read-only
                      </Text>
                    ) : (
                      <>
                        <EditDeleteButtons
                          object={`role ${role.name}`}
                          edit={{ permission: 'RBAC:Update', onClick: () => onEdit(role) }}
                          remove={{ permission: 'RBAC:Delete', onClick: () => onDelete(role) }}
                        />
                      </>
                    )}
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}
