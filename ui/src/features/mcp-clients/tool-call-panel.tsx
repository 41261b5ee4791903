import { Alert, Button, Code, Group, List, Modal, PasswordInput, Stack, Text, Textarea } from '@mantine/core';
import createClient from 'openapi-fetch';
import { useState } from 'react';
import { call, gatewayRoot } from '../../api/client';
import type { paths } from '../../api/openapi';
import { ErrorAlert } from '../../shared/ui/error-alert';
import { IconCheck } from '../../shared/ui/icons';
import { argumentsTemplate, parseArguments, type JsonSchema, type McpToolView } from './mcp-client-helpers';

/**
 * `/v1/mcp/tool/execute` answers for a virtual key, not for the dashboard's session: its own client sends no cookie,
 * and a 401 here (a wrong key) is the key's refusal, not the end of the session that the shared client would report.
 */
const toolApi = createClient<paths>({ baseUrl: gatewayRoot.href.replace(/\/$/, ''), credentials: 'omit' });

/** What `/v1/mcp/tool/execute` answers: with `format=chat`, the chat tool message. */
type ToolAnswer = paths['/v1/mcp/tool/execute']['post']['responses'][200]['content']['application/json'];

/**
 * Runs one tool the way a model's tool call would (`POST /v1/mcp/tool/execute`), as the virtual key typed here (kept
 * in this dialog only): the call is the key's, so it obeys the key's grants and shows in the MCP tool logs. The
 * arguments are checked against the tool's input schema before anything is sent.
 */
export function ToolCallPanel({
  client,
  tool,
  onClose,
}: {
  client: string;
  /** Set while the panel is open. */
  tool: McpToolView | undefined;
  onClose: () => void;
}) {
  const exposed = tool ? `${client}-${tool.name}` : '';
  return (
    <Modal opened={tool !== undefined} onClose={onClose} title={`Call ${exposed}`} size="lg">
      {tool && <ToolCallForm exposed={exposed} tool={tool} onClose={onClose} />}
    </Modal>
  );
}

function ToolCallForm({ exposed, tool, onClose }: { exposed: string; tool: McpToolView; onClose: () => void }) {
  const schema = tool.input_schema as JsonSchema;
  const [text, setText] = useState(() => argumentsTemplate(schema));
  const [virtualKey, setVirtualKey] = useState('');
  const [problems, setProblems] = useState<string[]>([]);
  const [error, setError] = useState<unknown>();
  const [answer, setAnswer] = useState<ToolAnswer>();
  const [running, setRunning] = useState(false);

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setAnswer(undefined);
    setError(undefined);
    const parsed = parseArguments(text, schema);
    if (!parsed.ok) {
      setProblems(parsed.problems);
      return;
    }
    setProblems([]);
    setRunning(true);
    try {
      const message = await call(
        toolApi.POST('/v1/mcp/tool/execute', {
          params: { query: { format: 'chat' } },
          headers: virtualKey.trim() ? { authorization: `Bearer ${virtualKey.trim()}` } : {},
          body: {
            id: `dashboard-${Date.now()}`,
            type: 'function',
            function: { name: exposed, arguments: JSON.stringify(parsed.value) },
          },
        }),
      );
      setAnswer(message);
    } catch (caught) {
      setError(caught);
    } finally {
      setRunning(false);
    }
  };

  return (
    <form onSubmit={(event) => void submit(event)} noValidate aria-label={`Call ${exposed}`}>
      <Stack gap="sm">
        {tool.description && (
          <Text size="sm" c="dimmed">
            {tool.description}
          </Text>
        )}
        <Textarea
          label="Arguments (JSON)"
          description="Checked against the tool's input schema before it is sent"
          autosize
          minRows={4}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          value={text}
          onChange={(event) => setText(event.currentTarget.value)}
          error={problems.length > 0 ? 'The arguments do not fit the input schema' : undefined}
          spellCheck={false}
        />
        {problems.length > 0 && (
          <Alert color="red" title="Not sent" role="alert">
            <List size="sm">
              {problems.map((problem) => (
                <List.Item key={problem}>{problem}</List.Item>
              ))}
            </List>
          </Alert>
        )}
        <PasswordInput
          label="Virtual key"
          description="The call runs as this key (its grants, its logs); kept in this dialog only"
          autoComplete="off"
          value={virtualKey}
          onChange={(event) => setVirtualKey(event.currentTarget.value)}
        />
        {error !== undefined && <ErrorAlert error={error} />}
        {answer && (
          <Alert color="green" title="The tool answered" icon={<IconCheck size={18} />} role="status">
            <Code block data-testid="tool-answer" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
              {'content' in answer ? answer.content : answer.output}
            </Code>
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Close
          </Button>
          <Button type="submit" loading={running}>
            Call tool
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
