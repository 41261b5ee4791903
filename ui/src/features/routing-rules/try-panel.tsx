import { Button, Group, List, Paper, Select, SimpleGrid, Stack, Text, TextInput, Textarea, Title } from '@mantine/core';
import { useState } from 'react';
import { api, call } from '../../api/client';
import { ErrorAlert } from '../../shared/ui/error-alert';
import { IconPlayerPlay } from '../../shared/ui/icons';
import { PROVIDER_IDS } from '../providers/provider-helpers';
import { describeTargets, parsePairs, splitModel, type RoutingRuleTryResult } from './routing-rule-values';

const REQUEST_TYPES = ['chat_completion', 'text_completion', 'responses', 'embedding', 'rerank', 'count_tokens'];

/**
 * Evaluates the enabled rules against a sample request (`POST /api/governance/routing-rules/try`, the request path's
 * own engine): which rule matched and the provider/model chain the request would try.
 */
export function TryPanel() {
  const [model, setModel] = useState('');
  const [requestType, setRequestType] = useState('chat_completion');
  const [headers, setHeaders] = useState('');
  const [virtualKeyId, setVirtualKeyId] = useState('');
  const [headersError, setHeadersError] = useState<string>();
  const [result, setResult] = useState<RoutingRuleTryResult>();
  const [error, setError] = useState<unknown>();
  const [running, setRunning] = useState(false);

  const run = async (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = parsePairs(headers);
    if ('badLine' in parsed) {
      setHeadersError(`Line ${parsed.badLine} is not "name: value"`);
      return;
    }
    setHeadersError(undefined);
    setError(undefined);
    setRunning(true);
    try {
      const { provider, model: bare } = splitModel(model, PROVIDER_IDS);
      setResult(
        await call(
          api.POST('/api/governance/routing-rules/try', {
            body: {
              ...(provider ? { provider: provider as never } : {}),
              model: bare,
              request_type: requestType,
              headers: parsed.pairs,
              ...(virtualKeyId.trim() ? { virtual_key_id: virtualKeyId.trim() } : {}),
            },
          }),
        ),
      );
    } catch (caught) {
      // The last answer stays beside the refusal's message: nothing the user typed is lost.
      setError(caught);
    } finally {
      setRunning(false);
    }
  };

  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="try-rules-title">
      <form onSubmit={(e) => void run(e)} noValidate aria-label="Try the rules">
        <Stack gap="sm">
          <Title order={2} size="h4" id="try-rules-title">
            Try the rules
          </Title>
          <Text size="sm" c="dimmed">
            A sample request, evaluated by the gateway against the enabled rules as stored.
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
            <TextInput
              label="Model"
              description="As a caller sends it: openai/gpt-4o, or a bare model"
              withAsterisk
              value={model}
              onChange={(e) => setModel(e.currentTarget.value)}
            />
            <Select
              label="Request type"
              data={REQUEST_TYPES}
              allowDeselect={false}
              value={requestType}
              onChange={(v) => setRequestType(v ?? 'chat_completion')}
            />
            <TextInput
              label="Virtual key id"
              description="Its rules, team and customer apply"
              value={virtualKeyId}
              onChange={(e) => setVirtualKeyId(e.currentTarget.value)}
            />
          </SimpleGrid>
          <Textarea
            label="Headers"
            description="One per line: name: value"
            placeholder="x-tier: premium"
            autosize
            minRows={2}
            spellCheck={false}
            value={headers}
            error={headersError}
            onChange={(e) => setHeaders(e.currentTarget.value)}
          />
          <Group>
            <Button
              type="submit"
              variant="default"
              loading={running}
              disabled={model.trim() === ''}
              leftSection={<IconPlayerPlay size={14} aria-hidden />}
            >
              Try
            </Button>
          </Group>
          {error !== undefined && <ErrorAlert error={error} onClose={() => setError(undefined)} />}
          {result && (
            <div role="status" aria-label="Try result">
              {result.matched ? (
                <Stack gap={4}>
                  {result.steps.map((step, i) => (
                    <Text size="sm" key={`${step.rule_id}-${i}`}>
                      {i === 0 ? 'Matched rule' : 'Then, chained, rule'} <b>{step.rule_name}</b>: targets{' '}
                      {describeTargets(step.targets)}; picked {step.provider ? `${step.provider}/` : ''}
                      {step.model}
                    </Text>
                  ))}
                </Stack>
              ) : (
                <Text size="sm">No rule matched: the request goes where it asked.</Text>
              )}
              <Text size="sm" mt="xs" fw={600}>
                Chain
              </Text>
              <List type="ordered" size="sm" aria-label="Chain">
                {result.chain.map((entry, i) => (
                  <List.Item key={`${entry}-${i}`}>
                    {entry}
                    {i === 0 ? ' (target)' : ` (fallback ${i})`}
                  </List.Item>
                ))}
              </List>
            </div>
          )}
        </Stack>
      </form>
    </Paper>
  );
}
