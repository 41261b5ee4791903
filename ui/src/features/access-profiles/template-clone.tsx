import { Button, Group, Modal, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { CloneAccessProfileRequest } from '../../api/constraints.gen';
import { api, call } from '../../api/client';
import { useApiForm } from '../../shared/forms/use-api-form';
import { ErrorAlert } from '../../shared/ui/error-alert';
import type { ProfileView } from './profile-helpers';

/**
 * Clones a template under a new name (`POST …/{profile_id}/clone`): the clone keeps the state, tags and profile fields
 * and starts at version 1 with no roles and no copies. An empty description keeps the original's.
 */
export function CloneTemplateModal({
  source,
  onClose,
  onCloned,
}: {
  source: ProfileView | undefined;
  onClose: () => void;
  onCloned: (profile: ProfileView) => void;
}) {
  return (
    <Modal opened={source !== undefined} onClose={onClose} title={source ? `Clone template ${source.name}` : ''}>
      {source && <CloneForm source={source} onCancel={onClose} onCloned={onCloned} />}
    </Modal>
  );
}

function CloneForm({
  source,
  onCancel,
  onCloned,
}: {
  source: ProfileView;
  onCancel: () => void;
  onCloned: (profile: ProfileView) => void;
}) {
  const { form, formError, onSubmit } = useApiForm({
    initialValues: { name: `${source.name} copy`, description: '' },
    constraints: CloneAccessProfileRequest,
  });
  const submit = onSubmit(async ({ name, description }) => {
    const cloned = await call(
      api.POST('/api/governance/access-profiles/{profile_id}/clone', {
        params: { path: { profile_id: source.id } },
        body: { name: name.trim(), ...(description.trim() ? { description } : {}) },
      }),
    );
    onCloned(cloned.access_profile);
  });
  return (
    <form onSubmit={submit} noValidate aria-label={`Clone template ${source.name}`}>
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          The clone keeps the state, tags, providers, budgets, limits and MCP grants of {source.name} (version{' '}
          {source.version}) and starts at version 1, with no role defaults and no users&apos; copies.
        </Text>
        <TextInput label="Name" withAsterisk data-autofocus {...form.getInputProps('name')} />
        <Textarea
          label="Description"
          description="Empty: the description of the template cloned"
          autosize
          minRows={1}
          maxRows={4}
          {...form.getInputProps('description')}
        />
        {formError !== undefined && <ErrorAlert error={formError} />}
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={form.submitting}>
            Clone template
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
