import { Alert, Autocomplete, Button, Group, Modal, Select, Stack, Text, Textarea } from '@mantine/core';
import { useState } from 'react';
import { ProviderTestRequest } from '../../api/constraints.gen';
import { api, call } from '../../api/client';
import type { Schema } from '../../api/schemas';
import { formatLatency, formatNumber } from '../../shared/format/format';
import { useApiForm } from '../../shared/forms/use-api-form';
import { ErrorAlert } from '../../shared/ui/error-alert';
import { IconAlertTriangle, IconCheck } from '../../shared/ui/icons';
import { modelSuggestions, type ProviderKeyView } from './provider-helpers';

type TestResult = Schema<'ProviderTestResult'>;

interface TestValues extends Record<string, unknown> {
  model: string;
  key_id: string;
  prompt: string;
}

const testRequest = (values: TestValues): Schema<'ProviderTestRequest'> => ({
  model: values.model.trim(),
  ...(values.key_id ? { key_id: values.key_id } : {}),
  ...(values.prompt.trim() ? { prompt: values.prompt.trim() } : {}),
});

/** What the provider answered, or its error as /v1 would relay it. */
function Outcome({ result }: { result: TestResult }) {
  const via = `key ${result.key_name}, model ${result.model}, ${formatLatency(result.latency_ms)}`;
  if (result.status === 'success') {
    const usage = result.usage;
    return (
      <Alert color="green" title="The provider answered" icon={<IconCheck size={18} />} role="status">
        <Text size="sm" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }} data-testid="test-answer">
          {result.answer || '(an empty answer)'}
        </Text>
        <Text size="xs" c="dimmed" mt={4}>
          {via}
          {usage ? `, ${formatNumber(usage.total_tokens)} tokens` : ''}
        </Text>
      </Alert>
    );
  }
  const error = result.error;
  return (
    <Alert color="red" title="The provider refused" icon={<IconAlertTriangle size={18} />} role="alert">
      <Text size="sm" style={{ wordBreak: 'break-word' }}>
        {error?.error.message ?? 'No answer'}
      </Text>
      <Text size="xs" mt={4}>
        {[error ? `HTTP ${error.status_code}` : undefined, error?.extra_fields.error_type, via]
          .filter(Boolean)
          .join(' · ')}
      </Text>
    </Alert>
  );
}

/**
 * The test action: one small chat completion sent straight to the provider with one key
 * (`POST /api/providers/{provider}/test`); shows the answer or the provider's error.
 */
export function TestDialog({
  provider,
  keys,
  keyId,
  onClose,
}: {
  /** Set while the dialog is open. */
  provider: string | undefined;
  keys: ProviderKeyView[];
  keyId?: string;
  onClose: () => void;
}) {
  return (
    <Modal opened={provider !== undefined} onClose={onClose} title={`Test ${provider ?? ''}`} size="lg">
      {provider !== undefined && <TestForm provider={provider} keys={keys} keyId={keyId} onCancel={onClose} />}
    </Modal>
  );
}

function TestForm({
  provider,
  keys,
  keyId,
  onCancel,
}: {
  provider: string;
  keys: ProviderKeyView[];
  keyId?: string;
  onCancel: () => void;
}) {
  const [result, setResult] = useState<TestResult>();
  const suggestions = modelSuggestions(keyId ? keys.filter((k) => k.id === keyId) : keys);
  const { form, formError, onSubmit } = useApiForm<TestValues>({
    initialValues: { model: suggestions[0] ?? '', key_id: keyId ?? '', prompt: '' },
    constraints: ProviderTestRequest,
    toRequest: testRequest,
  });
  const submit = onSubmit(async (values) => {
    setResult(undefined);
    setResult(
      await call(
        api.POST('/api/providers/{provider}/test', {
          params: { path: { provider: provider as ProviderKeyView['provider'] } },
          body: testRequest(values),
        }),
      ),
    );
  });
  return (
    <form onSubmit={submit} noValidate aria-label="Test the provider">
      <Stack gap="sm">
        <Autocomplete
          label="Model"
          description="As the provider names it, without the provider prefix"
          data={suggestions}
          withAsterisk
          {...form.getInputProps('model')}
        />
        <Select
          label="Key"
          data={[
            { value: '', label: 'Any enabled key serving the model' },
            ...keys.map((k) => ({ value: k.id, label: k.enabled ? k.name : `${k.name} (disabled)` })),
          ]}
          allowDeselect={false}
          {...form.getInputProps('key_id')}
        />
        <Textarea
          label="Message"
          placeholder="Say hello in one short sentence."
          autosize
          minRows={2}
          {...form.getInputProps('prompt')}
        />
        <Text size="xs" c="dimmed">
          One request, answered in at most 64 tokens: no retry, fallback or budget, and no request log.
        </Text>
        {formError !== undefined && <ErrorAlert error={formError} />}
        {result && <Outcome result={result} />}
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            Close
          </Button>
          <Button type="submit" loading={form.submitting}>
            Send test request
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
