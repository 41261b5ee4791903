import {
  Button,
  Divider,
  Group,
  Modal,
  PasswordInput,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { ProviderCreateRequest, ProviderUpdateRequest } from '../../api/constraints.gen';
import { api, call } from '../../api/client';
import { useApiForm } from '../../shared/forms/use-api-form';
import { ErrorAlert } from '../../shared/ui/error-alert';
import { IconPlus } from '../../shared/ui/icons';
import { RemoveRowButton } from '../../shared/ui/remove-row-button';
import {
  createProviderRequest,
  emptyHeader,
  headerProblems,
  PROVIDER_IDS,
  providerFieldOf,
  providerFormValues,
  updateProviderRequest,
  type ProviderFormValues,
  type ProviderView,
} from './provider-helpers';

/**
 * Adds a provider, or changes one (`editing`): its base URL, extra headers and network settings. A refusal lands on
 * the field the API names, and what was typed stays. Header values are secrets: a stored one is never shown, and left
 * empty it is kept.
 */
export function ProviderFormModal({
  opened,
  editing,
  onClose,
  onSaved,
}: {
  opened: boolean;
  editing?: ProviderView;
  onClose: () => void;
  onSaved: (provider: ProviderView) => void;
}) {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={editing ? `Edit provider ${editing.provider}` : 'Add a provider'}
      size="lg"
    >
      {opened && <ProviderForm editing={editing} onCancel={onClose} onSaved={onSaved} />}
    </Modal>
  );
}

function ProviderForm({
  editing,
  onCancel,
  onSaved,
}: {
  editing?: ProviderView;
  onCancel: () => void;
  onSaved: (provider: ProviderView) => void;
}) {
  const { form, formError, onSubmit } = useApiForm<ProviderFormValues>({
    initialValues: providerFormValues(editing),
    constraints: editing ? ProviderUpdateRequest : ProviderCreateRequest,
    toRequest: (values) => (editing ? updateProviderRequest(values) : createProviderRequest(values)),
    validate: (values) => headerProblems(values.extra_headers),
    fieldOf: providerFieldOf,
  });
  const headers = form.values.extra_headers;
  const submit = onSubmit(async (values) => {
    const saved = editing
      ? await call(
          api.PUT('/api/providers/{provider}', {
            params: { path: { provider: editing.provider } },
            body: updateProviderRequest(values),
          }),
        )
      : await call(api.POST('/api/providers', { body: createProviderRequest(values) }));
    onSaved(saved);
  });
  return (
    <form onSubmit={submit} noValidate aria-label={editing ? 'Edit provider' : 'Add a provider'}>
      <Stack gap="sm">
        <Select
          label="Provider"
          data={PROVIDER_IDS}
          searchable
          disabled={!!editing}
          withAsterisk={!editing}
          {...form.getInputProps('provider')}
        />
        <TextInput
          label="Base URL"
          description="Leave empty for the provider's default (required for self-hosted ollama, vllm and sgl)"
          placeholder="https://api.example.com/v1"
          {...form.getInputProps('base_url')}
        />
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          <TextInput
            label="Request timeout"
            placeholder="30s"
            {...form.getInputProps('network_config.default_request_timeout')}
          />
          <TextInput
            label="Retries"
            inputMode="numeric"
            placeholder="0"
            {...form.getInputProps('network_config.max_retries')}
          />
          <TextInput
            label="First retry backoff"
            placeholder="500ms"
            {...form.getInputProps('network_config.retry_backoff_initial')}
          />
          <TextInput
            label="Longest retry backoff"
            placeholder="5s"
            {...form.getInputProps('network_config.retry_backoff_max')}
          />
        </SimpleGrid>
        <Divider />
        <Stack gap="xs" role="group" aria-label="Extra headers">
          <Title order={3} size="h5">
            Extra headers
          </Title>
          <Text size="sm" c="dimmed">
            Added to every request to this provider. Values are kept as secrets: plain text, env.VAR_NAME or
            vault.&lt;mount&gt;/&lt;path&gt;.
          </Text>
          {headers.map((row, i) => (
            <Group key={i} align="flex-start" gap="xs" wrap="wrap">
              <TextInput
                label={`Header ${i + 1}: name`}
                placeholder="OpenAI-Organization"
                w={220}
                {...form.getInputProps(`extra_headers.${i}.name`)}
              />
              <PasswordInput
                label={`Header ${i + 1}: value`}
                autoComplete="off"
                style={{ flex: 1, minWidth: 200 }}
                description={
                  row.stored ? `Stored: ${row.source}. Leave empty to keep it; a new one replaces it.` : undefined
                }
                {...form.getInputProps(`extra_headers.${i}.value`)}
              />
              <RemoveRowButton
                mt={26}
                label={`Remove header ${row.name || i + 1}`}
                onClick={() => form.removeListItem('extra_headers', i)}
              />
            </Group>
          ))}
          {form.errors.extra_headers && (
            <Text size="sm" c="red" role="alert">
              {form.errors.extra_headers}
            </Text>
          )}
          <Group>
            <Button
              variant="default"
              size="xs"
              leftSection={<IconPlus size={14} aria-hidden />}
              onClick={() => form.insertListItem('extra_headers', emptyHeader())}
            >
              Add a header
            </Button>
          </Group>
        </Stack>
        {formError !== undefined && <ErrorAlert error={formError} />}
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={form.submitting}>
            {editing ? 'Save provider' : 'Add provider'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
