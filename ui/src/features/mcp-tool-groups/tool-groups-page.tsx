import { Badge, Group, Paper, Table, Text, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../../api/client';
import { describeError } from '../../api/errors';
import { GatedButton } from '../../shared/auth/permissions';
import { DateTime } from '../../shared/format/date-time';
import { useConfirm } from '../../shared/ui/confirm';
import { EditDeleteButtons } from '../../shared/ui/edit-delete-buttons';
import { ErrorAlert } from '../../shared/ui/error-alert';
import { IconPlus } from '../../shared/ui/icons';
import { Page } from '../../shared/ui/page';
import { ToolGroupFormModal } from './tool-group-form';
import { toolLabel, toolValue, type ToolGroupView } from './tool-group-helpers';
import { useMcpClientTools, useToolGroups } from './tool-group-queries';

/**
 * MCP tool groups: named sets of MCP tools that access profiles grant (their managed keys get the group's tools).
 * Create and edit with a picker of the tools the MCP clients list; delete after a confirmation naming the group (a
 * group a profile still references is refused with the API's 409).
 */
export function ToolGroupsPage() {
  const queryClient = useQueryClient();
  const confirm = useConfirm();
  const groups = useToolGroups();
  const clients = useMcpClientTools();
  const [editing, setEditing] = useState<{ group?: ToolGroupView }>();
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['mcp-tool-groups'] });
  const remove = async (group: ToolGroupView) => {
    const sure = await confirm({
      title: 'Delete tool group',
      message: `Delete the tool group ${group.name}? Its ${group.tools.length} tool(s) are no longer grouped; a group an access profile references cannot be deleted.`,
      confirmLabel: `Delete ${group.name}`,
      danger: true,
    });
    if (!sure) return;
    try {
      await call(api.DELETE('/api/mcp/tool-groups/{id}', { params: { path: { id: group.id } } }));
      notifications.show({ color: 'green', message: `Deleted ${group.name}` });
    } catch (error) {
      notifications.show({ color: 'red', ...describeError(error) });
    }
    await refresh();
  };
  const list = groups.data ?? [];
  const known = clients.data ?? [];

  return (
    <Page
      title="MCP tool groups"
      description="Named sets of MCP tools. An access profile that references a group grants its tools to its users' managed keys."
      actions={
        <GatedButton
          permission="MCPGateway:Create"
          leftSection={<IconPlus size={16} aria-hidden />}
          onClick={() => setEditing({})}
        >
          Add tool group
        </GatedButton>
      }
    >
      {groups.isError && <ErrorAlert error={groups.error} />}
      {groups.data && list.length === 0 && (
        <Paper withBorder p="xl" radius="md">
          <Text c="dimmed">No tool group yet. Add one from the tools your MCP clients list.</Text>
        </Paper>
      )}
      {list.length > 0 && (
        <Paper withBorder radius="md">
          <Table.ScrollContainer minWidth={700}>
            <Table verticalSpacing="sm" aria-label="Tool groups">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Name</Table.Th>
                  <Table.Th>Tools</Table.Th>
                  <Table.Th>Updated</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>Actions</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {list.map((group) => (
                  <Table.Tr key={group.id}>
                    <Table.Td>
                      <Text fw={600}>{group.name}</Text>
                      {group.description && (
                        <Text size="sm" c="dimmed">
                          {group.description}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td aria-label={`Tools of ${group.name}`}>
                      {group.tools.length === 0 ? (
                        <Text size="sm" c="dimmed">
                          No tool
                        </Text>
                      ) : (
                        <Group gap={4}>
                          {group.tools.map((tool) => (
                            <Badge key={toolValue(tool)} variant="default" tt="none">
                              {toolLabel(tool, known)}
                            </Badge>
                          ))}
                        </Group>
                      )}
                    </Table.Td>
                    <Table.Td>
                      <DateTime value={group.updated_at} />
                    </Table.Td>
                    <Table.Td>
                      <Group gap="xs" justify="flex-end" wrap="nowrap">
                        <EditDeleteButtons
                          object={`tool group ${group.name}`}
                          edit={{ permission: 'MCPGateway:Update', onClick: () => setEditing({ group }) }}
                          remove={{ permission: 'MCPGateway:Delete', onClick: () => void remove(group) }}
                        />
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Paper>
      )}
      <ToolGroupFormModal
        opened={editing !== undefined}
        editing={editing?.group}
        onClose={() => setEditing(undefined)}
        onSaved={(saved) => {
          notifications.show({
            color: 'green',
            message: editing?.group ? `Tool group ${saved.name} saved` : `Tool group ${saved.name} added`,
          });
          setEditing(undefined);
          void refresh();
        }}
      />
    </Page>
  );
}
