import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { ManagementKeyCreateRequest, ManagementKeyUpdateRequest } from '../../api/constraints.gen';
import { api, call } from '../../api/client';
import type { Schema } from '../../api/schemas';
import { gridField } from '../../shared/auth/permission-grid';
import { PermissionGrid, useGrantable } from '../../shared/auth/permission-grid-input';
import { useApiForm } from '../../shared/forms/use-api-form';
import { ErrorAlert } from '../../shared/ui/error-alert';
import {
  createKeyRequest,
  keyProblems,
  keyValues,
  updateKeyRequest,
  type KeyValues,
  type ManagementKey,
} from './key-helpers';

type Created = Schema<'ManagementKeyCreateResponse'>;

export function KeyFormModal({
  opened,
  editing,
  onClose,
  onCreated,
  onSaved,
}: {
  opened: boolean;
  editing?: ManagementKey;
  onClose: () => void;
  /** A new key, with its value (shown once by the page). */
  onCreated: (created: Created) => void;
  onSaved: (saved: ManagementKey) => void;
}) {
  const title = editing ? `Edit management key ${editing.name}` : 'Create a management key';
  return (
    <Modal opened={opened} onClose={onClose} title={title} size="xl">
      {opened && <KeyForm editing={editing} title={title} onCancel={onClose} onCreated={onCreated} onSaved={onSaved} />}
    </Modal>
  );
}

/**
 * A key's name, expiry and scopes ticked in the grid. A refusal (a scope the caller does not hold: 403 above the
 * form; an expiry in the past: 400 on `expires_at`) keeps what was typed and ticked.
 */
function KeyForm({
  editing,
  title,
  onCancel,
  onCreated,
  onSaved,
}: {
  editing?: ManagementKey;
  title: string;
  onCancel: () => void;
  onCreated: (created: Created) => void;
  onSaved: (saved: ManagementKey) => void;
}) {
  const { form, formError, onSubmit } = useApiForm<KeyValues>({
    initialValues: keyValues(editing),
    constraints: editing ? ManagementKeyUpdateRequest : ManagementKeyCreateRequest,
    toRequest: (values) => (editing ? updateKeyRequest(values, editing) : createKeyRequest(values)),
    validate: (values) => keyProblems(values, editing),
    fieldOf: (param) => gridField(param, 'scopes'),
  });
  const { resources, canGrant, clamped } = useGrantable(editing?.scopes);
  const submit = onSubmit(async (values) => {
    if (editing) {
      onSaved(
        await call(
          api.PUT('/api/management-keys/{id}', {
            params: { path: { id: editing.id } },
            body: updateKeyRequest(values, editing),
          }),
        ),
      );
    } else {
      onCreated(await call(api.POST('/api/management-keys', { body: createKeyRequest(values) })));
    }
  });
  const granted = form.values.scopes.length;
  return (
    <form onSubmit={submit} noValidate aria-label={title}>
      <Stack gap="sm">
        <TextInput label="Name" withAsterisk description="What the key is for" {...form.getInputProps('name')} />
        <TextInput
          type="datetime-local"
          label="Expires"
          description={`In your time zone (${Intl.DateTimeFormat().resolvedOptions().timeZone}); empty: never expires`}
          w={{ base: '100%', xs: 320 }}
          {...form.getInputProps('expires_at')}
        />
        <div>
          <Text size="sm" fw={500}>
            Scopes
          </Text>
          <Text size="sm" c="dimmed">
            {granted === 0 ? 'None ticked yet.' : `${granted} ticked.`} The key may call a management route only when
            the route’s permission is ticked.
            {clamped && ' You can grant only the permissions you hold yourself.'}
          </Text>
        </div>
        <PermissionGrid
          label={editing ? `Scopes of key ${editing.name}` : 'Scopes of the new key'}
          value={form.values.scopes}
          resources={resources}
          canGrant={canGrant}
          onChange={(next) => {
            form.setFieldValue('scopes', next);
            form.clearFieldError('scopes');
          }}
          error={form.errors.scopes as string | undefined}
        />
        <ErrorAlert error={formError} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={form.submitting}>
            {editing ? 'Save key' : 'Create key'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
