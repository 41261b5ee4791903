import { ActionIcon, Badge, Button, Group, Menu, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { api, call } from '../../api/client';
import { describeError } from '../../api/errors';
import { useCan } from '../../shared/auth/permissions';
import { IconPlus, IconX } from '../../shared/ui/icons';
import { groupsOfTool, toolsWith, type ToolGroupView } from '../mcp-tool-groups/tool-group-helpers';

/**
 * The tool groups one tool of a client belongs to, each removable, and a menu adding it to another group: the group
 * is read again (`GET /api/mcp/tool-groups/{id}`) and written with this tool added or removed (`PUT`; MCPGateway:Update).
 */
export function ToolGroupsCell({
  groups,
  clientId,
  exposedName,
  toolName,
}: {
  groups: readonly ToolGroupView[];
  clientId: string;
  exposedName: string;
  toolName: string;
}) {
  const queryClient = useQueryClient();
  const canUpdate = useCan('MCPGateway:Update');
  const tool = { mcp_client_id: clientId, tool_name: toolName };
  const member = groupsOfTool(groups, clientId, toolName);
  const others = groups.filter((g) => !member.includes(g));
  const change = async (group: ToolGroupView, add: boolean) => {
    const path = { params: { path: { id: group.id } } };
    try {
      // The group as stored now (another tool may have joined it since the list was read): only this tool changes.
      const { tool_group: current } = await call(api.GET('/api/mcp/tool-groups/{id}', path));
      await call(api.PUT('/api/mcp/tool-groups/{id}', { ...path, body: { tools: toolsWith(current, tool, add) } }));
      notifications.show({
        color: 'green',
        message: add ? `${exposedName} added to ${group.name}` : `${exposedName} removed from ${group.name}`,
      });
    } catch (error) {
      notifications.show({ color: 'red', ...describeError(error) });
    }
    await queryClient.invalidateQueries({ queryKey: ['mcp-tool-groups'] });
  };
  const needs = canUpdate ? undefined : 'Needs the MCPGateway:Update permission';
  return (
    <Group gap={4} wrap="wrap">
      {member.length === 0 && (
        <Text size="sm" c="dimmed">
          None
        </Text>
      )}
      {member.map((group) => (
        <Badge
          key={group.id}
          variant="default"
          tt="none"
          rightSection={
            <ActionIcon
              size="xs"
              variant="transparent"
              color="gray.8"
              disabled={!canUpdate}
              title={needs}
              aria-label={`Remove ${exposedName} from ${group.name}`}
              onClick={() => void change(group, false)}
            >
              <IconX size={12} aria-hidden />
            </ActionIcon>
          }
        >
          {group.name}
        </Badge>
      ))}
      {others.length > 0 && (
        <Menu position="bottom-start" withinPortal>
          <Menu.Target>
            <Button
              size="compact-xs"
              variant="subtle"
              disabled={!canUpdate}
              title={needs}
              leftSection={<IconPlus size={12} aria-hidden />}
              aria-label={`Add ${exposedName} to a group`}
            >
              Group
            </Button>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Label>Add to tool group</Menu.Label>
            {others.map((group) => (
              <Menu.Item key={group.id} onClick={() => void change(group, true)}>
                {group.name}
              </Menu.Item>
            ))}
          </Menu.Dropdown>
        </Menu>
      )}
    </Group>
  );
}
