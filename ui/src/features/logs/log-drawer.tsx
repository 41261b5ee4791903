import { Anchor, Badge, Code, Drawer, Group, Loader, Paper, Stack, Table, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { api, call } from '../../api/client';
import { describeError } from '../../api/errors';
import type { Schema } from '../../api/schemas';
import { useCan } from '../../shared/auth/permissions';
import { DateTime } from '../../shared/format/date-time';
import { formatCost, formatLatency, formatNumber } from '../../shared/format/format';
import { useConfirm } from '../../shared/ui/confirm';
import { ErrorAlert } from '../../shared/ui/error-alert';
import { LogDrawerHeader } from '../../shared/ui/log-drawer-header';
import { Facts, Json, Section } from '../../shared/ui/details';
import { StatusBadge } from '../../shared/ui/status-badge';
import type { RequestLog } from './live-filter';

type LogDetail = Schema<'RequestLogDetail'>;

interface Message {
  role: string;
  content: unknown;
}
const isMessage = (value: unknown): value is Message =>
  typeof value === 'object' && value !== null && typeof (value as Message).role === 'string';

/** Chat messages as a conversation; anything else (a prompt, Responses items, embeddings) as JSON. */
function Content({ value }: { value: unknown }) {
  const messages = Array.isArray(value) ? value : [value];
  if (!messages.every(isMessage)) return <Json value={value} />;
  return (
    <Stack gap="xs">
      {messages.map((message, i) => (
        <Paper key={i} withBorder p="xs" radius="sm">
          <Badge size="xs" variant="light" mb={4}>
            {message.role}
          </Badge>
          {typeof message.content === 'string' ? (
            <Text size="sm" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
              {message.content}
            </Text>
          ) : (
            <Json value={message.content ?? message} />
          )}
        </Paper>
      ))}
    </Stack>
  );
}

const getLog = (id: string, signal?: AbortSignal) =>
  call(api.GET('/api/logs/{id}', { params: { path: { id } }, signal }));

/** The attempts of one request: its primary row and every fallback (`parent_request_ids`), in the order tried. */
function Attempts({ log, onOpen }: { log: LogDetail; onOpen: (id: string) => void }) {
  const primaryId = log.parent_request_id ?? log.id;
  const primary = useQuery({
    queryKey: ['logs', 'detail', primaryId],
    queryFn: ({ signal }) => getLog(primaryId, signal),
    enabled: primaryId !== log.id,
  });
  const fallbacks = useQuery({
    queryKey: ['logs', 'attempts', primaryId],
    queryFn: ({ signal }) =>
      call(
        api.GET('/api/logs', { params: { query: { parent_request_ids: primaryId, order: 'asc', limit: 20 } }, signal }),
      ),
  });
  if (fallbacks.isError) return <ErrorAlert error={fallbacks.error} />;
  if (!fallbacks.data) return <Loader size="xs" aria-label="Loading the attempts" />;
  const first = primaryId === log.id ? log : primary.data;
  const rows: RequestLog[] = [...(first ? [first] : []), ...fallbacks.data.logs];
  if (rows.length < 2 && log.fallback_index === 0)
    return <Text size="sm">No fallback: the primary model answered.</Text>;
  return (
    <Table withTableBorder fz="sm" aria-label="Attempts">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Attempt</Table.Th>
          <Table.Th>Provider / model</Table.Th>
          <Table.Th>Result</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((row) => (
          <Table.Tr key={row.id} aria-current={row.id === log.id ? 'true' : undefined}>
            <Table.Td>
              {row.id === log.id ? (
                <Text size="sm" fw={700}>
                  {row.fallback_index === 0 ? 'Primary' : `Fallback ${row.fallback_index}`} (this log)
                </Text>
              ) : (
                <Anchor component="button" type="button" size="sm" onClick={() => onOpen(row.id)}>
                  {row.fallback_index === 0 ? 'Primary' : `Fallback ${row.fallback_index}`}
                </Anchor>
              )}
            </Table.Td>
            <Table.Td>
              {row.provider} / {row.model}
            </Table.Td>
            <Table.Td>
              <Group gap={4}>
                <StatusBadge row={row} />
                {row.error_type && (
                  <Text size="xs" c="dimmed">
                    {row.error_type}
                  </Text>
                )}
              </Group>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/**
 * The MCP tool calls this request asked for (agent mode): `GET /api/mcp-logs?llm_request_ids=`. A later round of an
 * agent's conversation has its own log row; its calls are logged against the first round's id
 * (`metadata.mcp_agent_request_id`).
 */
function ToolCalls({ log }: { log: LogDetail }) {
  const requestId = log.metadata?.mcp_agent_request_id ?? log.id;
  const calls = useQuery({
    queryKey: ['mcp-logs', 'of-request', requestId],
    queryFn: ({ signal }) =>
      call(
        api.GET('/api/mcp-logs', {
          params: { query: { llm_request_ids: requestId, order: 'asc', limit: 20 } },
          signal,
        }),
      ),
  });
  if (calls.isError) return <ErrorAlert error={calls.error} />;
  if (!calls.data) return <Loader size="xs" aria-label="Loading the tool calls" />;
  if (calls.data.logs.length === 0) return <Text size="sm">No MCP tool call.</Text>;
  return (
    <Stack gap="xs">
      <Table withTableBorder fz="sm" aria-label="Tool calls">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Tool</Table.Th>
            <Table.Th>Result</Table.Th>
            <Table.Th>Latency</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {calls.data.logs.map((tool) => (
            <Table.Tr key={tool.id}>
              <Table.Td>
                <Anchor component={Link} to="/mcp-logs" search={{ log: tool.id } as never} size="sm">
                  {tool.tool_name || tool.id}
                </Anchor>
              </Table.Td>
              <Table.Td>
                <StatusBadge row={tool} />
              </Table.Td>
              <Table.Td>{formatLatency(tool.latency)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {calls.data.pagination.total_count > calls.data.logs.length && (
        <Anchor component={Link} to="/mcp-logs" search={{ llm_request_ids: requestId } as never} size="sm">
          All {formatNumber(calls.data.pagination.total_count)} tool calls of this request
        </Anchor>
      )}
    </Stack>
  );
}

function Detail({ log, onOpen, onDeleted }: { log: LogDetail; onOpen: (id: string) => void; onDeleted: () => void }) {
  const confirm = useConfirm();
  const queryClient = useQueryClient();
  const remove = async () => {
    const yes = await confirm({
      title: 'Delete this log',
      message: `Delete the log of request ${log.id}, with its content? This cannot be undone.`,
      confirmLabel: 'Delete log',
      danger: true,
    });
    if (!yes) return;
    try {
      const result = await call(api.DELETE('/api/logs', { body: { ids: [log.id] } }));
      notifications.show({ color: 'green', message: result.message });
      await queryClient.invalidateQueries({ queryKey: ['logs'] });
      onDeleted();
    } catch (error) {
      notifications.show({ color: 'red', ...describeError(error) });
    }
  };
  const metadata = log.metadata && Object.keys(log.metadata).length ? log.metadata : null;
  const canSeeTools = useCan('MCPLogs:View');
  return (
    <Stack gap="lg">
      <LogDrawerHeader row={log} kind={log.object} deletePermission="Logs:Delete" onDelete={() => void remove()} />
      <Section title="Summary">
        <Facts
          rows={[
            ['Request id', <Code key="id">{log.id}</Code>],
            ['Time', <DateTime key="time" value={log.timestamp} />],
            ['Latency', formatLatency(log.latency)],
            ['Time to first token', log.time_to_first_token === null ? null : formatLatency(log.time_to_first_token)],
            [
              'Tokens',
              `${formatNumber(log.total_tokens)} (${formatNumber(log.prompt_tokens)} in, ${formatNumber(log.completion_tokens)} out)`,
            ],
            ['Cost', formatCost(log.cost)],
            ['Stop reason', log.stop_reason],
            ['Virtual key', log.virtual_key_name ?? log.virtual_key_id],
            ['Stream', log.stream ? 'yes' : 'no'],
            ['Cache', log.cache_hit ? `hit (${log.cache_type ?? 'direct'})` : null],
          ]}
        />
      </Section>
      <Section title="Routing">
        <Facts
          rows={[
            ['Provider', log.provider],
            ['Model', log.model],
            ['Requested as', log.alias],
            ['Canonical model', log.canonical_model_name],
            ['Provider key', log.selected_key_name ?? log.selected_key_id],
            ['Attempt', log.fallback_index === 0 ? 'Primary model' : `Fallback ${log.fallback_index}`],
            [
              'Fallback of',
              log.parent_request_id ? (
                <Anchor component="button" type="button" size="sm" onClick={() => onOpen(log.parent_request_id!)}>
                  {log.parent_request_id}
                </Anchor>
              ) : null,
            ],
            ['Retries', formatNumber(log.number_of_retries)],
            ['Routing rule', log.routing_rule_id],
            ['Team', log.team_id],
            ['Customer', log.customer_id],
          ]}
        />
      </Section>
      <Section title="Fallbacks">
        <Attempts log={log} onOpen={onOpen} />
      </Section>
      {canSeeTools && (
        <Section title="MCP tool calls">
          <ToolCalls log={log} />
        </Section>
      )}
      {(log.error_details || log.error_type) && (
        <Section title="Error">
          <Facts rows={[['Error type', log.error_type]]} />
          {log.error_details && <Json value={log.error_details} />}
        </Section>
      )}
      <Section title="Input">
        {log.input_history ? <Content value={log.input_history} /> : <Text size="sm">Not captured.</Text>}
      </Section>
      <Section title="Output">
        {log.output_message ? <Content value={log.output_message} /> : <Text size="sm">No output.</Text>}
      </Section>
      {log.params && Object.keys(log.params).length > 0 && (
        <Section title="Parameters">
          <Json value={log.params} />
        </Section>
      )}
      {log.tools ? (
        <Section title="Tools">
          <Json value={log.tools} />
        </Section>
      ) : null}
      {metadata && (
        <Section title="Metadata">
          <Facts rows={Object.entries(metadata)} />
        </Section>
      )}
      {log.plugin_logs && (
        <Section title="Plugin logs">
          <Json value={log.plugin_logs} />
        </Section>
      )}
      {log.raw_request && (
        <Section title="Raw request">
          <Json value={log.raw_request} />
        </Section>
      )}
      {log.raw_response && (
        <Section title="Raw response">
          <Json value={log.raw_response} />
        </Section>
      )}
    </Stack>
  );
}

/** One log in full (`GET /api/logs/{id}`): content, routing, its attempts, the error. Its id is in the URL (`log=`). */
export function LogDrawer({ id, onClose, onOpen }: { id?: string; onClose: () => void; onOpen: (id: string) => void }) {
  const detail = useQuery({
    queryKey: ['logs', 'detail', id],
    queryFn: ({ signal }) => getLog(id!, signal),
    enabled: !!id,
  });
  return (
    <Drawer
      opened={!!id}
      onClose={onClose}
      position="right"
      size="xl"
      title={<Text fw={700}>Request log</Text>}
      closeButtonProps={{ 'aria-label': 'Close the log' }}
    >
      {detail.isError && <ErrorAlert error={detail.error} />}
      {detail.isPending && id && <Loader aria-label="Loading the log" />}
      {detail.data && <Detail log={detail.data} onOpen={onOpen} onDeleted={onClose} />}
    </Drawer>
  );
}
