import { Badge, Group, Pagination, Paper, Stack, Switch, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../../api/client';
import { describeError } from '../../api/errors';
import type { Schema } from '../../api/schemas';
import { GatedButton, useCan } from '../../shared/auth/permissions';
import { DateTime } from '../../shared/format/date-time';
import { useConfirm } from '../../shared/ui/confirm';
import { ErrorAlert } from '../../shared/ui/error-alert';
import { IconPlayerPlay, IconPlus, IconRefresh, IconTrash } from '../../shared/ui/icons';
import { Page } from '../../shared/ui/page';
import { McpClientFormModal } from './mcp-client-form';
import { headerSource, toggledTools, toolEnabled, type McpClientView, type McpToolView } from './mcp-client-helpers';
import { ToolCallPanel } from './tool-call-panel';
import { ToolGroupsCell } from './tool-groups-cell';
import { useToolGroups } from '../mcp-tool-groups/tool-group-queries';
import type { ToolGroupView } from '../mcp-tool-groups/tool-group-helpers';

const PAGE_SIZE = 25;

/** Filled badges in shades whose white text passes WCAG AA in both schemes. */
const STATE_COLORS: Record<McpClientView['state'], string> = {
  connected: '#1e6b30',
  disconnected: 'gray.7',
  error: 'red.8',
  disabled: 'gray.7',
};

const TRANSPORTS: Record<McpClientView['connection_type'], string> = {
  http: 'Streamable HTTP',
  sse: 'HTTP with SSE',
  stdio: 'stdio',
};

function ToolsTable({
  client,
  groups,
  onToggle,
  onCall,
}: {
  client: McpClientView;
  groups: readonly ToolGroupView[];
  onToggle: (tool: McpToolView, enabled: boolean) => void;
  onCall: (tool: McpToolView) => void;
}) {
  const canUpdate = useCan('MCPGateway:Update');
  if (client.tools.length === 0)
    return (
      <Text c="dimmed" size="sm">
        {client.state === 'connected' ? 'The server lists no tool.' : 'No tool listed: the server is not connected.'}
      </Text>
    );
  return (
    <Table.ScrollContainer minWidth={760}>
      <Table verticalSpacing="xs" aria-label={`Tools of ${client.name}`}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Tool</Table.Th>
            <Table.Th>Description</Table.Th>
            <Table.Th>Enabled</Table.Th>
            <Table.Th>Tool groups</Table.Th>
            <Table.Th>
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {client.tools.map((tool) => {
            const enabled = toolEnabled(client, tool.name);
            return (
              <Table.Tr key={tool.name}>
                <Table.Td fw={600}>
                  {client.name}-{tool.name}
                </Table.Td>
                <Table.Td>
                  <Text size="sm" c="dimmed">
                    {tool.description ?? ''}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Switch
                    checked={enabled}
                    disabled={!canUpdate}
                    title={canUpdate ? undefined : 'Needs the MCPGateway:Update permission'}
                    aria-label={`Enable ${client.name}-${tool.name}`}
                    onChange={(event) => onToggle(tool, event.currentTarget.checked)}
                  />
                </Table.Td>
                <Table.Td>
                  <ToolGroupsCell
                    groups={groups}
                    clientId={client.id}
                    exposedName={`${client.name}-${tool.name}`}
                    toolName={tool.name}
                  />
                </Table.Td>
                <Table.Td>
                  <Group justify="flex-end">
                    <GatedButton
                      permission="MCPGateway:View"
                      size="compact-sm"
                      variant="subtle"
                      leftSection={<IconPlayerPlay size={14} aria-hidden />}
                      aria-label={`Call ${client.name}-${tool.name}`}
                      disabled={!enabled || client.state !== 'connected'}
                      onClick={() => onCall(tool)}
                    >
                      Call
                    </GatedButton>
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

function ClientCard({
  client,
  groups,
  act,
  remove,
  onCall,
}: {
  client: McpClientView;
  groups: readonly ToolGroupView[];
  act: <T>(run: () => Promise<T>, done: string | ((result: T) => string)) => Promise<void>;
  remove: (client: McpClientView) => void;
  onCall: (client: McpClientView, tool: McpToolView) => void;
}) {
  const path = { params: { path: { id: client.id } } };
  const headers = Object.entries(client.headers);
  const update = (body: Schema<'McpClientUpdateRequest'>, done: string) =>
    act(() => call(api.PUT('/api/mcp/client/{id}', { ...path, body })), done);
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby={`mcp-client-${client.id}`}>
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" gap="sm">
          <div style={{ minWidth: 0 }}>
            <Group gap="xs">
              <Title order={2} size="h4" id={`mcp-client-${client.id}`}>
                {client.name}
              </Title>
              <Badge variant="filled" color={STATE_COLORS[client.state]} tt="none" aria-label={`State ${client.state}`}>
                {client.state}
              </Badge>
            </Group>
            <Text size="sm" c="dimmed" style={{ wordBreak: 'break-all' }}>
              {TRANSPORTS[client.connection_type]} ·{' '}
              {client.connection_string ??
                [client.stdio_config?.command, ...(client.stdio_config?.args ?? [])].join(' ')}
            </Text>
            <Text size="xs" c="dimmed">
              {client.allow_on_all_virtual_keys
                ? 'Every virtual key may use it'
                : `${client.vk_configs.length} virtual key(s) granted`}{' '}
              · timeout {client.tool_execution_timeout} s · updated <DateTime value={client.updated_at} />
            </Text>
          </div>
          <Group gap="xs">
            <GatedButton
              permission="MCPGateway:Update"
              variant="default"
              size="xs"
              leftSection={<IconRefresh size={14} aria-hidden />}
              aria-label={`Reconnect ${client.name}`}
              disabled={client.disabled}
              onClick={() =>
                void act(
                  () => call(api.POST('/api/mcp/client/{id}/reconnect', path)),
                  ({ client: after }) =>
                    after.state === 'connected'
                      ? `${after.name} connected`
                      : `${after.name} is ${after.state}: ${after.last_error ?? 'no error given'}`,
                )
              }
            >
              Reconnect
            </GatedButton>
            <GatedButton
              permission="MCPGateway:Update"
              variant="default"
              size="xs"
              aria-label={`Refresh tools of ${client.name}`}
              disabled={client.state !== 'connected'}
              onClick={() =>
                void act(
                  () => call(api.POST('/api/mcp/client/{id}/refresh-tools', path)),
                  `Tools of ${client.name} listed again`,
                )
              }
            >
              Refresh tools
            </GatedButton>
            <GatedButton
              permission="MCPGateway:Update"
              variant="default"
              size="xs"
              aria-label={`${client.disabled ? 'Enable' : 'Disable'} ${client.name}`}
              onClick={() =>
                void update(
                  { disabled: !client.disabled },
                  `${client.name} ${client.disabled ? 'enabled' : 'disabled'}`,
                )
              }
            >
              {client.disabled ? 'Enable' : 'Disable'}
            </GatedButton>
            <GatedButton
              permission="MCPGateway:Delete"
              variant="default"
              color="red"
              size="xs"
              leftSection={<IconTrash size={14} aria-hidden />}
              aria-label={`Delete ${client.name}`}
              onClick={() => remove(client)}
            >
              Delete
            </GatedButton>
          </Group>
        </Group>
        {client.last_error && client.state !== 'connected' && (
          <Text size="sm" c="red.8" role="status" aria-label={`Last error of ${client.name}`}>
            Last error: {client.last_error}
          </Text>
        )}
        {headers.length > 0 && (
          <Text size="sm" aria-label={`Headers of ${client.name}`}>
            Headers:{' '}
            {headers.map(([name, value]) => (
              <span key={name}>
                {name}:{' '}
                <Text span c="dimmed">
                  {headerSource(value)}
                </Text>{' '}
              </span>
            ))}
          </Text>
        )}
        <ToolsTable
          client={client}
          groups={groups}
          onToggle={(tool, enabled) =>
            void update(
              toggledTools(client, tool.name, enabled),
              `${client.name}-${tool.name} ${enabled ? 'enabled' : 'disabled'}`,
            )
          }
          onCall={(tool) => onCall(client, tool)}
        />
      </Stack>
    </Paper>
  );
}

/**
 * MCP clients: the MCP servers the gateway connects to, with their state (and the last error), the headers sent to
 * them (values redacted), their tools (enable/disable for every caller), reconnect, and a panel that calls one tool.
 */
export function McpClientsPage() {
  const queryClient = useQueryClient();
  const confirm = useConfirm();
  const [page, setPage] = useState(1);
  const [adding, setAdding] = useState(false);
  const [calling, setCalling] = useState<{ client: string; tool: McpToolView }>();
  const clients = useQuery({
    queryKey: ['mcp-clients', page],
    queryFn: ({ signal }) =>
      call(
        api.GET('/api/mcp/clients', {
          params: { query: { limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE } },
          signal,
        }),
      ),
    placeholderData: keepPreviousData,
    // A connection's state changes on the server (a reconnect after a drop): read it again now and then.
    refetchInterval: 10_000,
  });
  const groups = useToolGroups();
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['mcp-clients'] });
  const act = async <T,>(run: () => Promise<T>, done: string | ((result: T) => string)) => {
    try {
      const result = await run();
      notifications.show({ color: 'green', message: typeof done === 'string' ? done : done(result) });
    } catch (error) {
      notifications.show({ color: 'red', ...describeError(error) });
    }
    await refresh();
  };
  const remove = async (client: McpClientView) => {
    const sure = await confirm({
      title: 'Delete MCP server',
      message: `Delete the MCP server ${client.name}? Its ${client.tools.length} tool(s) stop being offered at once.`,
      confirmLabel: `Delete ${client.name}`,
      danger: true,
    });
    if (sure)
      await act(
        () => call(api.DELETE('/api/mcp/client/{id}', { params: { path: { id: client.id } } })),
        `Deleted ${client.name}`,
      );
  };
  const list = clients.data?.clients ?? [];
  const pages = Math.max(1, Math.ceil((clients.data?.total_count ?? 0) / PAGE_SIZE));

  return (
    <Page
      title="MCP clients"
      description="The MCP servers whose tools the gateway offers to models and to /mcp. Header values are never shown."
      actions={
        <GatedButton
          permission="MCPGateway:Create"
          leftSection={<IconPlus size={16} aria-hidden />}
          onClick={() => setAdding(true)}
        >
          Add MCP server
        </GatedButton>
      }
    >
      {clients.isError && <ErrorAlert error={clients.error} />}
      {groups.isError && <ErrorAlert error={groups.error} />}
      {clients.data && list.length === 0 && (
        <Paper withBorder p="xl" radius="md">
          <Text c="dimmed">No MCP server yet. Add one and its tools can be offered to models.</Text>
        </Paper>
      )}
      {list.map((client) => (
        <ClientCard
          key={client.id}
          client={client}
          groups={groups.data ?? []}
          act={act}
          remove={(c) => void remove(c)}
          onCall={(c, tool) => setCalling({ client: c.name, tool })}
        />
      ))}
      {pages > 1 && (
        <Group justify="center">
          <Pagination total={pages} value={page} onChange={setPage} aria-label="Pages of MCP clients" />
        </Group>
      )}
      <McpClientFormModal
        opened={adding}
        onClose={() => setAdding(false)}
        onSaved={(saved) => {
          setAdding(false);
          notifications.show({ color: 'green', message: `MCP server ${saved.name} added` });
          void refresh();
        }}
      />
      <ToolCallPanel client={calling?.client ?? ''} tool={calling?.tool} onClose={() => setCalling(undefined)} />
    </Page>
  );
}
