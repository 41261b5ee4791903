import { Anchor, Badge, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../../api/client';
import { describeError } from '../../api/errors';
import { GatedButton } from '../../shared/auth/permissions';
import { useConfirm } from '../../shared/ui/confirm';
import { ErrorAlert } from '../../shared/ui/error-alert';
import { IconPlus } from '../../shared/ui/icons';
import { Page } from '../../shared/ui/page';
import { RegisteredCard } from './agent-card';
import { AgentFormModal } from './agent-form';
import { AgentHistory } from './agent-history';
import { authLines, type AgentView } from './agent-helpers';
import { agentsSearchOf, type AgentsSearch } from './agents-search';
import { PushConfigs } from './push-configs';
import { agentsRoute } from './route';
import { EditDeleteButtons } from '../../shared/ui/edit-delete-buttons';

const ENABLED_COLOR = '#1e6b30';

function AuthSummary({ title, lines }: { title: string; lines: string[] }) {
  return (
    <div>
      <Text size="sm" fw={500}>
        {title}
      </Text>
      {lines.map((line) => (
        <Text key={line} size="sm" c="dimmed" style={{ wordBreak: 'break-word' }}>
          {line}
        </Text>
      ))}
    </div>
  );
}

function AgentPanel({ agent, onEdit, onDelete }: { agent: AgentView; onEdit: () => void; onDelete: () => void }) {
  const keys = agent.virtual_key_ids?.length ?? 0;
  return (
    <Paper withBorder p="md" radius="md" component="article" aria-label={`Agent ${agent.name}`}>
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Group gap="xs">
            <Title order={3} size="h5">
              {agent.name}
            </Title>
            <Badge
              variant={agent.enabled ? 'filled' : 'outline'}
              color={agent.enabled ? ENABLED_COLOR : 'gray'}
              tt="none"
            >
              {agent.enabled ? 'enabled' : 'disabled'}
            </Badge>
          </Group>
          <Group gap={4}>
            <EditDeleteButtons
              object={`agent ${agent.name}`}
              edit={{ permission: 'AgentGateway:Update', onClick: onEdit }}
              remove={{ permission: 'AgentGateway:Delete', onClick: onDelete }}
            />
          </Group>
        </Group>
        <Text size="sm" style={{ wordBreak: 'break-all' }}>
          Card: <Anchor href={agent.agent_card_url}>{agent.agent_card_url}</Anchor>
          <br />
          Through the gateway: <code>/agents/a2a/{agent.name}</code>
        </Text>
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
          <RegisteredCard
            name={agent.name}
            url={agent.agent_card_url}
            needsAuth={!!agent.discovery_auth && agent.discovery_auth.type !== 'none'}
          />
          <Stack gap="xs">
            <AuthSummary title="Upstream authentication" lines={authLines(agent.runtime_auth)} />
            <AuthSummary title="Card authentication" lines={authLines(agent.discovery_auth)} />
            <AuthSummary
              title="Access"
              lines={[
                agent.allow_by_default ? 'Any virtual key' : `${keys} virtual key${keys === 1 ? '' : 's'} allowed`,
                ...(agent.forward_accepted_credential ? ["The caller's credential is forwarded"] : []),
              ]}
            />
          </Stack>
        </SimpleGrid>
      </Stack>
    </Paper>
  );
}

/**
 * Agents: the A2A agents registered on the gateway with their cards (skills, capabilities, interfaces), registered by
 * URL, edited and deleted; their upstream authentication shown redacted; the push configurations clients set through
 * the gateway; and the history of operations, filtered in the URL, one open in a drawer.
 */
export function AgentsPage() {
  const search = agentsRoute.useSearch();
  const navigate = agentsRoute.useNavigate();
  const go = (next: AgentsSearch) => void navigate({ search: agentsSearchOf(next) });
  const queryClient = useQueryClient();
  const confirm = useConfirm();
  const [dialog, setDialog] = useState<{ editing?: AgentView }>();
  const list = useQuery({
    queryKey: ['agents', 'list'],
    queryFn: ({ signal }) => call(api.GET('/api/agents', { signal })),
  });
  const agents = list.data?.agents ?? [];
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['agents'] });
  const remove = async (agent: AgentView) => {
    const sure = await confirm({
      title: 'Delete agent',
      message: `Delete the agent ${agent.name}? Calls to /agents/a2a/${agent.name} stop at once; its history stays.`,
      confirmLabel: `Delete ${agent.name}`,
      danger: true,
    });
    if (!sure) return;
    try {
      await call(api.DELETE('/api/agents/{name}', { params: { path: { name: agent.name } } }));
      notifications.show({ color: 'green', message: `Deleted agent ${agent.name}` });
    } catch (error) {
      notifications.show({ color: 'red', ...describeError(error) });
    }
    await refresh();
  };
  return (
    <Page
      title="Agents"
      description="A2A agents served through the gateway, their cards, push configurations and history."
      actions={
        <GatedButton
          permission="AgentGateway:Create"
          leftSection={<IconPlus size={16} aria-hidden />}
          onClick={() => setDialog({})}
        >
          Register agent
        </GatedButton>
      }
    >
      <Paper withBorder p="md" radius="md" component="section" aria-labelledby="registered-agents">
        <Stack gap="sm">
          <Title order={2} size="h4" id="registered-agents">
            Registered agents
          </Title>
          {list.isError && <ErrorAlert error={list.error} />}
          {list.data && agents.length === 0 && (
            <Text c="dimmed" size="sm">
              No agent yet. Register one by the URL of its A2A card.
            </Text>
          )}
          {agents.map((agent) => (
            <AgentPanel
              key={agent.name}
              agent={agent}
              onEdit={() => setDialog({ editing: agent })}
              onDelete={() => void remove(agent)}
            />
          ))}
        </Stack>
      </Paper>
      <PushConfigs />
      <AgentHistory search={search} go={go} agentNames={agents.map((a) => a.name)} />
      <AgentFormModal
        opened={dialog !== undefined}
        editing={dialog?.editing}
        onClose={() => setDialog(undefined)}
        onSaved={(saved) => {
          setDialog(undefined);
          notifications.show({ color: 'green', message: `Agent ${saved.name} saved` });
          void refresh();
        }}
      />
    </Page>
  );
}
