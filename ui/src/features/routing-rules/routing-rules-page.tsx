import { ActionIcon, Badge, Code, Group, Paper, Table, Text, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../../api/client';
import { describeError } from '../../api/errors';
import { GatedButton, useCan } from '../../shared/auth/permissions';
import { useConfirm } from '../../shared/ui/confirm';
import { ErrorAlert } from '../../shared/ui/error-alert';
import { IconArrowDown, IconArrowUp, IconPlus } from '../../shared/ui/icons';
import { Page } from '../../shared/ui/page';
import { RoutingRuleFormModal } from './routing-rule-form';
import {
  canMove,
  describeScope,
  describeTargets,
  evaluationOrder,
  reorderUpdates,
  type RoutingRule,
} from './routing-rule-values';
import { TryPanel } from './try-panel';

/** Filled badges in shades whose white text passes WCAG AA in both schemes (as the providers screen's). */
const ON_COLOR = '#1e6b30';
const OFF_COLOR = 'gray.7';

/**
 * Routing rules in the order the gateway evaluates them (scope, then priority), moved up or down within their scope,
 * created and edited with the expression checked by the gateway, deleted after a confirmation; a "try" panel shows
 * what the rules decide for a sample request.
 */
export function RoutingRulesPage() {
  const queryClient = useQueryClient();
  const confirm = useConfirm();
  const canReorder = useCan('RoutingRules:Update');
  const [form, setForm] = useState<{ editing?: RoutingRule }>();
  const [moving, setMoving] = useState(false);
  const list = useQuery({
    queryKey: ['routing-rules', 'list'],
    queryFn: ({ signal }) => call(api.GET('/api/governance/routing-rules', { signal })),
  });
  const rules = evaluationOrder(list.data?.rules ?? []);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['routing-rules'] });
  const fail = (error: unknown) => notifications.show({ color: 'red', ...describeError(error) });

  const move = async (rule: RoutingRule, direction: 'up' | 'down') => {
    setMoving(true);
    try {
      for (const update of reorderUpdates(rules, rule.id, direction)) {
        await call(
          api.PUT('/api/governance/routing-rules/{rule_id}', {
            params: { path: { rule_id: update.id } },
            body: { priority: update.priority },
          }),
        );
      }
      notifications.show({ color: 'green', message: `Moved ${rule.name} ${direction}` });
    } catch (error) {
      fail(error);
    } finally {
      setMoving(false);
      void refresh();
    }
  };

  const remove = async (rule: RoutingRule) => {
    const sure = await confirm({
      title: 'Delete routing rule',
      message: `Delete the routing rule ${rule.name}? Requests it matches will go where they asked.`,
      confirmLabel: `Delete ${rule.name}`,
      danger: true,
    });
    if (!sure) return;
    try {
      const done = await call(
        api.DELETE('/api/governance/routing-rules/{rule_id}', { params: { path: { rule_id: rule.id } } }),
      );
      notifications.show({ color: 'green', message: done.message });
      void refresh();
    } catch (error) {
      fail(error);
    }
  };

  return (
    <Page
      title="Routing rules"
      description="Evaluated on every request in this order: the most specific scope first, then priority. The first match decides."
      actions={
        <GatedButton
          permission="RoutingRules:Create"
          leftSection={<IconPlus size={16} aria-hidden />}
          onClick={() => setForm({})}
        >
          Create routing rule
        </GatedButton>
      }
    >
      {list.isError && <ErrorAlert error={list.error} />}
      {list.data && rules.length === 0 && (
        <Paper withBorder p="xl" radius="md">
          <Text c="dimmed">No routing rule: every request goes to the provider and model it asks for.</Text>
        </Paper>
      )}
      {rules.length > 0 && (
        <Table.ScrollContainer minWidth={900}>
          <Table verticalSpacing="xs" aria-label="Routing rules" highlightOnHover>
            <Table.Thead>
              <Table.Tr>
                <Table.Th ta="right">#</Table.Th>
                <Table.Th>Rule</Table.Th>
                <Table.Th>Expression</Table.Th>
                <Table.Th>Targets</Table.Th>
                <Table.Th>Fallbacks</Table.Th>
                <Table.Th>Scope</Table.Th>
                <Table.Th ta="right">Priority</Table.Th>
                <Table.Th>State</Table.Th>
                <Table.Th>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rules.map((rule, i) => (
                <Table.Tr key={rule.id}>
                  <Table.Td ta="right">{i + 1}</Table.Td>
                  <Table.Td>
                    <Text size="sm" fw={600}>
                      {rule.name}
                    </Text>
                    {rule.description && (
                      <Text size="xs" c="dimmed">
                        {rule.description}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td style={{ maxWidth: 320 }}>
                    <Code style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>{rule.cel_expression}</Code>
                  </Table.Td>
                  <Table.Td>{describeTargets(rule.targets)}</Table.Td>
                  <Table.Td>{rule.fallbacks.length > 0 ? rule.fallbacks.join(', ') : 'the request’s'}</Table.Td>
                  <Table.Td style={{ wordBreak: 'break-all' }}>
                    {describeScope(rule)}
                    {rule.chain_rule && (
                      <Text size="xs" c="dimmed">
                        chained
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td ta="right">{rule.priority}</Table.Td>
                  <Table.Td>
                    <Badge variant="filled" color={rule.enabled ? ON_COLOR : OFF_COLOR} tt="none">
                      {rule.enabled ? 'enabled' : 'disabled'}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    <Group gap={4} wrap="nowrap" justify="flex-end">
                      <ActionIcon
                        variant="subtle"
                        aria-label={`Move ${rule.name} up`}
                        title={canReorder ? undefined : 'Needs the RoutingRules:Update permission'}
                        disabled={!canReorder || moving || !canMove(rules, rule.id, 'up')}
                        onClick={() => void move(rule, 'up')}
                      >
                        <IconArrowUp size={16} aria-hidden />
                      </ActionIcon>
                      <ActionIcon
                        variant="subtle"
                        aria-label={`Move ${rule.name} down`}
                        title={canReorder ? undefined : 'Needs the RoutingRules:Update permission'}
                        disabled={!canReorder || moving || !canMove(rules, rule.id, 'down')}
                        onClick={() => void move(rule, 'down')}
                      >
                        <IconArrowDown size={16} aria-hidden />
                      </ActionIcon>
                      <GatedButton
                        permission="RoutingRules:Update"
                        size="compact-sm"
                        variant="subtle"
                        aria-label={`Edit ${rule.name}`}
                        onClick={() => setForm({ editing: rule })}
                      >
                        Edit
                      </GatedButton>
                      <GatedButton
                        permission="RoutingRules:Delete"
                        size="compact-sm"
                        variant="subtle"
                        color="red"
                        aria-label={`Delete ${rule.name}`}
                        onClick={() => void remove(rule)}
                      >
                        Delete
                      </GatedButton>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <TryPanel />
      <RoutingRuleFormModal
        opened={form !== undefined}
        editing={form?.editing}
        onClose={() => setForm(undefined)}
        onSaved={(saved) => {
          notifications.show({ color: 'green', message: `Routing rule ${saved.name} saved` });
          setForm(undefined);
          void refresh();
        }}
      />
    </Page>
  );
}
