import {
  Button,
  Checkbox,
  Divider,
  Group,
  Modal,
  Paper,
  PasswordInput,
  SimpleGrid,
  Stack,
  Switch,
  TagsInput,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { ProviderKeyCreateRequest, ProviderKeyUpdateRequest } from '../../api/constraints.gen';
import { api, call } from '../../api/client';
import { useApiForm } from '../../shared/forms/use-api-form';
import { ErrorAlert } from '../../shared/ui/error-alert';
import { IconPlus } from '../../shared/ui/icons';
import { RemoveRowButton } from '../../shared/ui/remove-row-button';
import {
  BEDROCK_SECRETS,
  emptyAlias,
  emptyDeployment,
  keyBlockOf,
  keyFormValues,
  keyRequest,
  keyRowProblems,
  secretSource,
  type BedrockSecret,
  type KeyFormValues,
  type ProviderKeyView,
} from './provider-helpers';

/**
 * Adds a key to a provider, or changes one (`editing`). The stored value is never shown: typing a new one rotates
 * it, leaving the field empty keeps it.
 */
export function KeyFormModal({
  provider,
  editing,
  onClose,
  onSaved,
}: {
  /** Set while the dialog is open. */
  provider: string | undefined;
  editing?: ProviderKeyView;
  onClose: () => void;
  onSaved: (key: ProviderKeyView) => void;
}) {
  return (
    <Modal
      opened={provider !== undefined}
      onClose={onClose}
      title={editing ? `Edit key ${editing.name} of ${editing.provider}` : `Add a key to ${provider ?? ''}`}
      size="xl"
    >
      {provider !== undefined && <KeyForm provider={provider} editing={editing} onCancel={onClose} onSaved={onSaved} />}
    </Modal>
  );
}

type Form = UseFormReturnType<KeyFormValues>;

/** What a stored secret's input says: typing replaces it, empty keeps it; the value itself is never shown. */
function keepHint(stored: Parameters<typeof secretSource>[0]): string | undefined {
  return stored ? `Stored: ${secretSource(stored)}. Leave empty to keep it; a new one replaces it.` : undefined;
}

function SectionError({ form, path }: { form: Form; path: string }) {
  const error = form.errors[path];
  return error ? (
    <Text size="sm" c="red" role="alert">
      {error}
    </Text>
  ) : null;
}

function AliasRows({ form }: { form: Form }) {
  const rows = form.values.aliases;
  return (
    <Stack gap="xs" role="group" aria-label="Model aliases">
      <Title order={3} size="h5">
        Model aliases
      </Title>
      <Text size="sm" c="dimmed">
        A requested model sent upstream as another model id (for pricing and logs under its canonical name).
      </Text>
      {rows.map((_, i) => (
        <Paper key={i} withBorder p="xs" radius="sm">
          <Group align="flex-start" gap="xs" wrap="wrap">
            <TextInput
              label={`Alias ${i + 1}: requested model`}
              w={180}
              {...form.getInputProps(`aliases.${i}.alias`)}
            />
            <TextInput
              label={`Alias ${i + 1}: model id sent`}
              withAsterisk
              w={200}
              {...form.getInputProps(`aliases.${i}.model_id`)}
            />
            <TextInput
              label={`Alias ${i + 1}: model name`}
              w={150}
              {...form.getInputProps(`aliases.${i}.model_name`)}
            />
            <TextInput label={`Alias ${i + 1}: family`} w={120} {...form.getInputProps(`aliases.${i}.model_family`)} />
            <RemoveRowButton
              mt={26}
              label={`Remove alias ${rows[i]?.alias || i + 1}`}
              onClick={() => form.removeListItem('aliases', i)}
            />
          </Group>
        </Paper>
      ))}
      <SectionError form={form} path="aliases" />
      <Group>
        <Button
          variant="default"
          size="xs"
          leftSection={<IconPlus size={14} aria-hidden />}
          onClick={() => form.insertListItem('aliases', emptyAlias())}
        >
          Add an alias
        </Button>
      </Group>
    </Stack>
  );
}

function AzureBlock({ form }: { form: Form }) {
  const rows = form.values.azure_key_config.deployments;
  return (
    <Stack gap="xs" role="group" aria-label="Azure">
      <Title order={3} size="h5">
        Azure
      </Title>
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
        <TextInput
          label="Endpoint"
          withAsterisk
          placeholder="https://my-resource.openai.azure.com"
          {...form.getInputProps('azure_key_config.endpoint')}
        />
        <TextInput
          label="API version"
          placeholder="2024-10-21"
          {...form.getInputProps('azure_key_config.api_version')}
        />
      </SimpleGrid>
      <Text size="sm" c="dimmed">
        Deployments: a model without one is sent to the deployment of its own name.
      </Text>
      {rows.map((_, i) => (
        <Group key={i} align="flex-start" gap="xs">
          <TextInput
            label={`Deployment ${i + 1}: model`}
            w={200}
            {...form.getInputProps(`azure_key_config.deployments.${i}.model`)}
          />
          <TextInput
            label={`Deployment ${i + 1}: deployment name`}
            w={220}
            {...form.getInputProps(`azure_key_config.deployments.${i}.deployment`)}
          />
          <RemoveRowButton
            mt={26}
            label={`Remove deployment ${rows[i]?.model || i + 1}`}
            onClick={() => form.removeListItem('azure_key_config.deployments', i)}
          />
        </Group>
      ))}
      <SectionError form={form} path="azure_key_config.deployments" />
      <Group>
        <Button
          variant="default"
          size="xs"
          leftSection={<IconPlus size={14} aria-hidden />}
          onClick={() => form.insertListItem('azure_key_config.deployments', emptyDeployment())}
        >
          Add a deployment
        </Button>
      </Group>
    </Stack>
  );
}

const BEDROCK_LABELS: Record<BedrockSecret, string> = {
  access_key: 'Access key id',
  secret_key: 'Secret access key',
  session_token: 'Session token',
};

function BedrockBlock({ form, required, stored }: { form: Form; required: boolean; stored?: ProviderKeyView }) {
  const removed = form.values.bedrock_removed;
  return (
    <Stack gap="xs" role="group" aria-label="AWS Bedrock">
      <Title order={3} size="h5">
        AWS Bedrock
      </Title>
      <Text size="sm" c="dimmed">
        With an access key pair requests are signed (SigV4); without one the key’s value is sent as a Bedrock API key.
        {!required && ' Leave every field empty for a key without AWS settings.'}
      </Text>
      <TextInput
        label="Region"
        withAsterisk={required}
        placeholder="us-east-1"
        w={200}
        {...form.getInputProps('bedrock_key_config.region')}
      />
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
        {BEDROCK_SECRETS.map((field) => {
          const kept = stored?.bedrock_key_config?.[field];
          const gone = removed.includes(field);
          return (
            <Stack key={field} gap={4}>
              <PasswordInput
                label={BEDROCK_LABELS[field]}
                autoComplete="off"
                description={gone ? 'Removed on save' : keepHint(kept)}
                disabled={gone}
                {...form.getInputProps(`bedrock_key_config.${field}`)}
              />
              {kept && (
                <Checkbox
                  size="xs"
                  label={`Remove the stored ${BEDROCK_LABELS[field].toLowerCase()}`}
                  checked={gone}
                  onChange={(event) => {
                    form.setFieldValue(
                      'bedrock_removed',
                      event.currentTarget.checked ? [...removed, field] : removed.filter((f) => f !== field),
                    );
                    form.setFieldValue(`bedrock_key_config.${field}`, '');
                  }}
                />
              )}
            </Stack>
          );
        })}
      </SimpleGrid>
    </Stack>
  );
}

function VertexBlock({ form, stored }: { form: Form; stored?: ProviderKeyView }) {
  const kept = stored?.vertex_key_config?.auth_credentials;
  return (
    <Stack gap="xs" role="group" aria-label="Google Vertex AI">
      <Title order={3} size="h5">
        Google Vertex AI
      </Title>
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
        <TextInput
          label="Project id"
          withAsterisk
          placeholder="my-project"
          {...form.getInputProps('vertex_key_config.project_id')}
        />
        <TextInput
          label="Region"
          withAsterisk
          placeholder="us-central1"
          {...form.getInputProps('vertex_key_config.region')}
        />
      </SimpleGrid>
      <Textarea
        label="Service account"
        withAsterisk={!kept}
        description={
          keepHint(kept) ?? 'The service account’s JSON key file, or env.VAR_NAME / vault.<mount>/<path> holding it.'
        }
        autoComplete="off"
        autosize
        minRows={2}
        maxRows={6}
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
        {...form.getInputProps('vertex_key_config.auth_credentials')}
      />
    </Stack>
  );
}

function KeyForm({
  provider,
  editing,
  onCancel,
  onSaved,
}: {
  provider: string;
  editing?: ProviderKeyView;
  onCancel: () => void;
  onSaved: (key: ProviderKeyView) => void;
}) {
  const { form, formError, onSubmit } = useApiForm<KeyFormValues>({
    initialValues: keyFormValues(editing),
    constraints: editing ? ProviderKeyUpdateRequest : ProviderKeyCreateRequest,
    toRequest: (values) => keyRequest(values, provider, editing),
    validate: (values) => keyRowProblems(values, provider),
  });
  const block = keyBlockOf(provider);
  const submit = onSubmit(async (values) => {
    const path = { provider: provider as ProviderKeyView['provider'] };
    const body = keyRequest(values, provider, editing);
    const saved = editing
      ? await call(
          api.PUT('/api/providers/{provider}/keys/{key_id}', {
            params: { path: { ...path, key_id: editing.id } },
            body,
          }),
        )
      : await call(api.POST('/api/providers/{provider}/keys', { params: { path }, body }));
    onSaved(saved);
  });
  return (
    <form onSubmit={submit} noValidate aria-label={editing ? 'Edit key' : 'Add a key'}>
      <Stack gap="sm">
        <TextInput label="Name" withAsterisk {...form.getInputProps('name')} />
        <PasswordInput
          label={editing ? 'New value' : 'Value'}
          description={
            editing
              ? 'Leave empty to keep the current value; a new one replaces it (rotation). The stored value is never shown.'
              : 'The provider’s API key, or env.VAR_NAME / vault.<mount>/<path> to read it from there.'
          }
          autoComplete="off"
          {...form.getInputProps('value')}
        />
        <TextInput
          label="Weight"
          description="Share of requests among the keys serving a model"
          inputMode="decimal"
          {...form.getInputProps('weight')}
        />
        <TagsInput
          label="Models"
          description="* serves every model; otherwise only these (press Enter after each)"
          {...form.getInputProps('models')}
        />
        <TagsInput
          label="Never these models"
          description="Refused even when the list above allows them"
          {...form.getInputProps('blacklisted_models')}
        />
        <Switch label="Enabled" {...form.getInputProps('enabled', { type: 'checkbox' })} />
        {block && <Divider />}
        {block?.field === 'azure_key_config' && <AzureBlock form={form} />}
        {block?.field === 'bedrock_key_config' && (
          <BedrockBlock form={form} required={block.required} stored={editing} />
        )}
        {block?.field === 'vertex_key_config' && <VertexBlock form={form} stored={editing} />}
        <Divider />
        <AliasRows form={form} />
        {formError !== undefined && <ErrorAlert error={formError} />}
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={form.submitting}>
            {editing ? 'Save key' : 'Add key'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
