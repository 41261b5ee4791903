import { Button, Checkbox, Group, Modal, PasswordInput, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { WebhookCreateRequest, WebhookUpdateRequest } from '../../api/constraints.gen';
import { api, call } from '../../api/client';
import { useApiForm } from '../../shared/forms/use-api-form';
import { ErrorAlert } from '../../shared/ui/error-alert';
import { IconPlus } from '../../shared/ui/icons';
import { RemoveRowButton } from '../../shared/ui/remove-row-button';
import {
  createRequest,
  headerField,
  updateRequest,
  webhookFormValues,
  webhookProblems,
  type WebhookFormValues,
  type WebhookView,
} from './webhook-helpers';

/**
 * Creates a webhook, or edits one (`editing`): name, URL, description, enabled, and the headers sent with every
 * delivery (values are secrets: typed, never read back; a stored one left empty is kept). A refusal lands on the
 * field the API names, and what was typed stays.
 */
export function WebhookFormModal({
  opened,
  editing,
  onClose,
  onSaved,
}: {
  opened: boolean;
  editing?: WebhookView;
  onClose: () => void;
  onSaved: (webhook: WebhookView) => void;
}) {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={editing ? `Edit webhook ${editing.name}` : 'Add a webhook'}
      size="lg"
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      {opened && <WebhookForm editing={editing} onCancel={onClose} onSaved={onSaved} />}
    </Modal>
  );
}

function WebhookForm({
  editing,
  onCancel,
  onSaved,
}: {
  editing?: WebhookView;
  onCancel: () => void;
  onSaved: (webhook: WebhookView) => void;
}) {
  const stored = Object.keys(editing?.headers ?? {});
  const toRequest = (values: WebhookFormValues) => (editing ? updateRequest(values, editing) : createRequest(values));
  const { form, formError, onSubmit } = useApiForm<WebhookFormValues>({
    initialValues: webhookFormValues(editing),
    constraints: editing ? WebhookUpdateRequest : WebhookCreateRequest,
    toRequest,
    validate: (values) => webhookProblems(values, stored),
    fieldOf: headerField,
  });
  const submit = onSubmit(async (values) => {
    const saved = editing
      ? await call(
          api.PUT('/api/webhooks/{id}', { params: { path: { id: editing.id } }, body: updateRequest(values, editing) }),
        )
      : await call(api.POST('/api/webhooks', { body: createRequest(values) }));
    onSaved(saved);
  });
  const headers = form.getValues().headers;
  return (
    <form onSubmit={submit} noValidate aria-label={editing ? 'Edit webhook' : 'Add a webhook'}>
      <Stack gap="sm">
        <TextInput
          label="Name"
          description="Lower-case words joined by -; async jobs name it in x-gateway-async-webhook"
          withAsterisk
          {...form.getInputProps('name')}
        />
        <TextInput
          label="URL"
          description="The events are POSTed here (http or https)"
          placeholder="https://hooks.example.com/gateway"
          withAsterisk
          {...form.getInputProps('url')}
        />
        <Textarea label="Description" autosize minRows={1} maxRows={4} {...form.getInputProps('description')} />
        <Stack gap={4}>
          <Text size="sm" fw={500}>
            Headers
          </Text>
          <Text size="xs" c="dimmed">
            Sent with every delivery (an Authorization for your receiver). Values may be plain text, env.VAR or
            vault.mount/path; they are stored encrypted and never shown again.
          </Text>
          {headers.map((row, index) => (
            <Group key={index} gap="xs" align="flex-start" wrap="nowrap">
              <TextInput
                style={{ flex: 1 }}
                aria-label={`Header ${index + 1} name`}
                placeholder="Authorization"
                {...form.getInputProps(`headers.${index}.name`)}
              />
              <PasswordInput
                style={{ flex: 2 }}
                aria-label={`Header ${index + 1} value`}
                placeholder={row.stored && stored.includes(row.name.trim()) ? 'Stored: Redacted' : 'Bearer …'}
                description={
                  row.stored && stored.includes(row.name.trim()) ? 'Left empty, the stored value is kept' : undefined
                }
                {...form.getInputProps(`headers.${index}.value`)}
              />
              <RemoveRowButton
                label={`Remove header ${index + 1}`}
                onClick={() => form.removeListItem('headers', index)}
              />
            </Group>
          ))}
          <Group>
            <Button
              variant="default"
              size="xs"
              leftSection={<IconPlus size={14} aria-hidden />}
              onClick={() => form.insertListItem('headers', { name: '', value: '', stored: false })}
            >
              Add header
            </Button>
          </Group>
        </Stack>
        <Checkbox
          label="Enabled"
          description="A disabled webhook receives nothing; async jobs cannot name it"
          {...form.getInputProps('enabled', { type: 'checkbox' })}
        />
        {formError !== undefined && <ErrorAlert error={formError} />}
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={form.submitting}>
            {editing ? 'Save webhook' : 'Add webhook'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
