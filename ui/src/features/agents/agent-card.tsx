import { Badge, Group, List, Loader, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { api, call } from '../../api/client';
import { useCan } from '../../shared/auth/permissions';
import { ErrorAlert } from '../../shared/ui/error-alert';
import { cardSummary, type Inspection } from './agent-helpers';

/** A card as the gateway read it: name, description, skills, capabilities, interfaces and extensions. */
export function CardDetails({ inspection }: { inspection: Inspection }) {
  const card = cardSummary(inspection.card);
  return (
    <Stack gap="xs">
      <div>
        <Text fw={600}>
          {card.name || 'Unnamed card'}
          {card.version && (
            <Text span c="dimmed" size="sm">
              {' '}
              v{card.version}
            </Text>
          )}
        </Text>
        {card.description && (
          <Text size="sm" c="dimmed">
            {card.description}
          </Text>
        )}
      </div>
      <Title order={4} size="h6">
        Skills
      </Title>
      {card.skills.length === 0 ? (
        <Text size="sm" c="dimmed">
          The card lists no skill.
        </Text>
      ) : (
        <List size="sm" spacing={4} aria-label="Skills">
          {card.skills.map((skill) => (
            <List.Item key={skill.id || skill.name}>
              <Text span fw={500} size="sm">
                {skill.name}
              </Text>
              {skill.description && <Text span size="sm">{` — ${skill.description}`}</Text>}
              {skill.tags.map((tag) => (
                <Badge key={tag} size="xs" variant="light" ml={6} tt="none">
                  {tag}
                </Badge>
              ))}
            </List.Item>
          ))}
        </List>
      )}
      <Group gap={6}>
        <Text size="sm" fw={500}>
          Capabilities:
        </Text>
        {card.capabilities.length === 0 ? (
          <Text size="sm" c="dimmed">
            none declared
          </Text>
        ) : (
          card.capabilities.map((capability) => (
            <Badge key={capability} variant="outline" color="gray" tt="none">
              {capability}
            </Badge>
          ))
        )}
      </Group>
      <Title order={4} size="h6">
        Interfaces
      </Title>
      <List size="sm" spacing={2} aria-label="Interfaces">
        {inspection.interfaces.map((i) => (
          <List.Item key={`${i.protocolBinding} ${i.url}`} style={{ wordBreak: 'break-all' }}>
            <Text span fw={500} size="sm">
              {i.protocolBinding}
            </Text>{' '}
            {i.protocolVersion} · {i.url}
            {i.tenant ? ` (tenant ${i.tenant})` : ''}
          </List.Item>
        ))}
      </List>
      {inspection.extensions.length > 0 && (
        <Text size="sm">
          Extensions: {inspection.extensions.map((e) => `${e.uri}${e.required ? ' (required)' : ''}`).join(', ')}
        </Text>
      )}
      {inspection.security_schemes.length > 0 && (
        <Text size="sm">
          Security schemes: {inspection.security_schemes.map((s) => `${s.name} (${s.type})`).join(', ')}
        </Text>
      )}
    </Stack>
  );
}

/**
 * The card of a registered agent, read now through POST /api/agents/inspect (the registration does not keep it). A card
 * behind discovery authentication is not read here: its stored secret never comes back to the browser. Inspecting needs
 * `AgentGateway:Create` (enterprise): a caller without it is told so instead of getting a 403 per agent.
 */
export function RegisteredCard({ name, url, needsAuth }: { name: string; url: string; needsAuth: boolean }) {
  const mayInspect = useCan('AgentGateway:Create');
  const card = useQuery({
    queryKey: ['agents', 'card', name, url],
    queryFn: ({ signal }) => call(api.POST('/api/agents/inspect', { body: { agent_card_url: url }, signal })),
    enabled: !needsAuth && mayInspect,
    retry: false,
    staleTime: 60_000,
  });
  if (needsAuth)
    return (
      <Text size="sm" c="dimmed">
        The card is fetched with discovery authentication; the gateway reads it, this screen does not.
      </Text>
    );
  if (!mayInspect)
    return (
      <Text size="sm" c="dimmed">
        Reading the card needs the AgentGateway:Create permission (the gateway inspects it on demand).
      </Text>
    );
  if (card.isPending) return <Loader size="sm" aria-label={`Reading the card of ${name}`} />;
  if (card.isError) return <ErrorAlert error={card.error} />;
  return <CardDetails inspection={card.data} />;
}
