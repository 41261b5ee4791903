import { Anchor, Code, Group, Paper, SegmentedControl, Table, Text, Title } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import type { Schema } from '../../api/schemas';
import { DateTime } from '../../shared/format/date-time';
import { formatCost, formatLatency, formatNumber } from '../../shared/format/format';
import { circuitLabel, groupLabel } from './overview-data';
import { logsLinkOf, type OverviewSearch } from './overview-search';

type Groups = Schema<'RequestLogGroups'>;
type Group = Schema<'RequestLogGroup'>;
type OpenCircuit = Schema<'OpenCircuit'>;

export function Card({ title, actions, children }: { title: string; actions?: ReactNode; children: ReactNode }) {
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-label={title}>
      <Group justify="space-between" mb="sm" gap="xs">
        <Title order={2} size="h5">
          {title}
        </Title>
        {actions}
      </Group>
      {children}
    </Paper>
  );
}

const num = { style: { textAlign: 'right' as const, whiteSpace: 'nowrap' as const } };

/** A group's name, linking to its request logs over the same range. */
function GroupLink({ group, search }: { group: Group; search: OverviewSearch }) {
  const filters =
    group.model !== null || group.provider !== null
      ? { providers: group.provider ?? undefined, models: group.model ?? undefined }
      : { virtual_key_ids: group.virtual_key_id ?? undefined };
  if (group.provider === null && group.virtual_key_id === null) return <Text size="sm">{groupLabel(group)}</Text>;
  return (
    <Anchor component={Link} to="/logs" search={logsLinkOf(search, filters) as never} size="sm">
      {groupLabel(group)}
    </Anchor>
  );
}

function More({ shown, data }: { shown: number; data: Groups | undefined }) {
  if (!data || data.group_count <= shown) return null;
  return (
    <Text size="xs" c="dimmed" mt="xs">
      The {formatNumber(shown)} largest of {formatNumber(data.group_count)}.
    </Text>
  );
}

/** Requests, errors, latency, tokens and cost per provider and model (or per provider) over the range. */
export function Breakdown({
  data,
  search,
  onGroupBy,
}: {
  data: Groups | undefined;
  search: OverviewSearch;
  onGroupBy: (groupBy: 'model' | 'provider') => void;
}) {
  const byModel = (search.group_by ?? 'model') === 'model';
  const title = byModel ? 'By provider and model' : 'By provider';
  return (
    <Card
      title="Breakdown"
      actions={
        <SegmentedControl
          size="xs"
          aria-label="Group by"
          value={byModel ? 'model' : 'provider'}
          onChange={(value) => onGroupBy(value)}
          data={[
            { value: 'model', label: 'Provider and model' },
            { value: 'provider', label: 'Provider' },
          ]}
        />
      }
    >
      <Table.ScrollContainer minWidth={640}>
        <Table aria-label={title} verticalSpacing={6} fz="sm">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{byModel ? 'Provider / model' : 'Provider'}</Table.Th>
              <Table.Th {...num}>Requests</Table.Th>
              <Table.Th {...num}>Errors</Table.Th>
              <Table.Th {...num}>p50</Table.Th>
              <Table.Th {...num}>p95</Table.Th>
              <Table.Th {...num}>Tokens</Table.Th>
              <Table.Th {...num}>Cost</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {data?.groups.map((group) => (
              <Table.Tr key={groupLabel(group)}>
                <Table.Td>
                  <GroupLink group={group} search={search} />
                </Table.Td>
                <Table.Td {...num}>{formatNumber(group.requests)}</Table.Td>
                <Table.Td {...num}>{formatNumber(group.errors)}</Table.Td>
                <Table.Td {...num}>{formatLatency(group.p50)}</Table.Td>
                <Table.Td {...num}>{formatLatency(group.p95)}</Table.Td>
                <Table.Td {...num}>{formatNumber(group.tokens)}</Table.Td>
                <Table.Td {...num}>{formatCost(group.cost)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {data?.groups.length === 0 && (
        <Text size="sm" c="dimmed" ta="center" py="sm">
          No request in this range.
        </Text>
      )}
      <More shown={data?.groups.length ?? 0} data={data} />
    </Card>
  );
}

/** The virtual keys that cost most over the range. */
export function TopVirtualKeys({ data, search }: { data: Groups | undefined; search: OverviewSearch }) {
  return (
    <Card title="Top virtual keys by cost">
      <Table aria-label="Top virtual keys by cost" verticalSpacing={6} fz="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Virtual key</Table.Th>
            <Table.Th {...num}>Requests</Table.Th>
            <Table.Th {...num}>Tokens</Table.Th>
            <Table.Th {...num}>Cost</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {data?.groups.map((group) => (
            <Table.Tr key={group.virtual_key_id ?? ''}>
              <Table.Td>
                <GroupLink group={group} search={search} />
              </Table.Td>
              <Table.Td {...num}>{formatNumber(group.requests)}</Table.Td>
              <Table.Td {...num}>{formatNumber(group.tokens)}</Table.Td>
              <Table.Td {...num}>{formatCost(group.cost)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {data?.groups.length === 0 && (
        <Text size="sm" c="dimmed" ta="center" py="sm">
          No request in this range.
        </Text>
      )}
      <More shown={data?.groups.length ?? 0} data={data} />
    </Card>
  );
}

/** The circuits open now (`GET /api/circuit-breaker/state` lists open ones only). */
export function OpenCircuits({ circuits }: { circuits: Record<string, OpenCircuit> | undefined }) {
  const entries = Object.entries(circuits ?? {});
  if (circuits && entries.length === 0) return <Text size="sm">No circuit is open.</Text>;
  return (
    <Table.ScrollContainer minWidth={560}>
      <Table aria-label="Open circuits" verticalSpacing={6} fz="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Policy</Table.Th>
            <Table.Th>Opened</Table.Th>
            <Table.Th>Closes</Table.Th>
            <Table.Th>Tripped by</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {entries.map(([key, circuit]) => {
            const { policy, keyId } = circuitLabel(key);
            return (
              <Table.Tr key={key}>
                <Table.Td>
                  {policy}
                  {keyId && (
                    <Text span size="xs" c="dimmed">
                      {' '}
                      (key <Code>{keyId}</Code>)
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>
                  <DateTime value={circuit.opened_at} />
                </Table.Td>
                <Table.Td>
                  <DateTime value={circuit.expires_at} />
                </Table.Td>
                <Table.Td>
                  <Code>
                    {circuit.signal.header_name}
                    {circuit.signal.header_value ? `: ${circuit.signal.header_value}` : ''}
                  </Code>
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
