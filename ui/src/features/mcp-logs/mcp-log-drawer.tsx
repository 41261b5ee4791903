import { Code, Drawer, Loader, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api, call } from '../../api/client';
import { describeError } from '../../api/errors';
import { DateTime } from '../../shared/format/date-time';
import { formatCost, formatLatency } from '../../shared/format/format';
import { useConfirm } from '../../shared/ui/confirm';
import { Facts, Json, Section } from '../../shared/ui/details';
import { ErrorAlert } from '../../shared/ui/error-alert';
import { LogDrawerHeader } from '../../shared/ui/log-drawer-header';
import { LlmRequestLink, type McpToolLog } from './mcp-log-columns';

function Detail({ log, onDeleted }: { log: McpToolLog; onDeleted: () => void }) {
  const confirm = useConfirm();
  const queryClient = useQueryClient();
  const remove = async () => {
    const yes = await confirm({
      title: 'Delete this tool log',
      message: `Delete the log of tool call ${log.id}, with its arguments and result? This cannot be undone.`,
      confirmLabel: 'Delete log',
      danger: true,
    });
    if (!yes) return;
    try {
      const result = await call(api.DELETE('/api/mcp-logs', { body: { ids: [log.id] } }));
      notifications.show({ color: 'green', message: result.message });
      await queryClient.invalidateQueries({ queryKey: ['mcp-logs'] });
      onDeleted();
    } catch (error) {
      notifications.show({ color: 'red', ...describeError(error) });
    }
  };
  const metadata = log.metadata && Object.keys(log.metadata).length ? log.metadata : null;
  return (
    <Stack gap="lg">
      <LogDrawerHeader
        row={log}
        kind={log.mcp_request_type}
        deletePermission="MCPLogs:Delete"
        onDelete={() => void remove()}
      />
      <Section title="Summary">
        <Facts
          rows={[
            ['Tool log id', <Code key="id">{log.id}</Code>],
            ['Time', <DateTime key="time" value={log.timestamp} />],
            ['Tool', log.tool_name || null],
            ['Server', log.server_label],
            ['Latency', formatLatency(log.latency)],
            ['Cost', formatCost(log.cost)],
            ['Virtual key', log.virtual_key_name ?? log.virtual_key_id],
            ['Project', log.project_name ?? log.project_id],
            [
              'LLM request',
              log.llm_request_id ? (
                <LlmRequestLink key="llm" id={log.llm_request_id} label={log.llm_request_id} />
              ) : null,
            ],
          ]}
        />
      </Section>
      {log.error_details && (
        <Section title="Error">
          <Json value={log.error_details} />
        </Section>
      )}
      <Section title="Arguments">
        {log.arguments ? <Json value={log.arguments} /> : <Text size="sm">None.</Text>}
      </Section>
      <Section title="Result">
        {log.result !== null && log.result !== undefined ? (
          <Json value={log.result} />
        ) : (
          <Text size="sm">No result.</Text>
        )}
      </Section>
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
    </Stack>
  );
}

/** One tool log in full (`GET /api/mcp-logs/{id}`): arguments, result, error, its LLM request. Its id is `log=`. */
export function McpLogDrawer({ id, onClose }: { id?: string; onClose: () => void }) {
  const detail = useQuery({
    queryKey: ['mcp-logs', 'detail', id],
    queryFn: ({ signal }) => call(api.GET('/api/mcp-logs/{id}', { params: { path: { id: id! } }, signal })),
    enabled: !!id,
  });
  return (
    <Drawer
      opened={!!id}
      onClose={onClose}
      position="right"
      size="xl"
      title={<Text fw={700}>Tool log</Text>}
      closeButtonProps={{ 'aria-label': 'Close the tool log' }}
    >
      {detail.isError && <ErrorAlert error={detail.error} />}
      {detail.isPending && id && <Loader aria-label="Loading the tool log" />}
      {detail.data && <Detail log={detail.data} onDeleted={onClose} />}
    </Drawer>
  );
}
