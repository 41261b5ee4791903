import { Button, Group, Modal, PasswordInput, Select, Stack, TextInput } from '@mantine/core';
import { UserCreateRequest, UserUpdateRequest } from '../../api/constraints.gen';
import { api, call } from '../../api/client';
import { useGrantable } from '../../shared/auth/permission-grid-input';
import { useApiForm } from '../../shared/forms/use-api-form';
import { ErrorAlert } from '../../shared/ui/error-alert';
import {
  createUserRequest,
  updateUserRequest,
  userValues,
  type Role,
  type User,
  type UserValues,
} from './users-helpers';

export function UserFormModal({
  opened,
  editing,
  roles,
  onClose,
  onSaved,
}: {
  opened: boolean;
  editing?: User;
  roles: readonly Role[];
  onClose: () => void;
  onSaved: (saved: User) => void;
}) {
  const title = editing ? `Edit user ${editing.name}` : 'Create a user';
  return (
    <Modal opened={opened} onClose={onClose} title={title} size="md">
      {opened && <UserForm editing={editing} roles={roles} title={title} onCancel={onClose} onSaved={onSaved} />}
    </Modal>
  );
}

/**
 * A user's name, email, password and role, checked against the API's constraints; a refusal (an email taken: 409
 * on `email`; a role the caller may not hand out: 403 above the form) keeps what was typed.
 */
function UserForm({
  editing,
  roles,
  title,
  onCancel,
  onSaved,
}: {
  editing?: User;
  roles: readonly Role[];
  title: string;
  onCancel: () => void;
  onSaved: (saved: User) => void;
}) {
  const { form, formError, onSubmit } = useApiForm<UserValues>({
    initialValues: userValues(editing),
    constraints: editing ? UserUpdateRequest : UserCreateRequest,
    toRequest: (values) => (editing ? updateUserRequest(values, editing) : createUserRequest(values)),
    validate: (values): Record<string, string> => (values.role_id ? {} : { role_id: 'Choose a role' }),
  });
  const { canGrant } = useGrantable();
  const submit = onSubmit(async (values) => {
    const saved = editing
      ? await call(
          api.PUT('/api/governance/users/{id}', {
            params: { path: { id: editing.id } },
            body: updateUserRequest(values, editing),
          }),
        )
      : await call(api.POST('/api/governance/users', { body: createUserRequest(values) }));
    onSaved(saved);
  });
  return (
    <form onSubmit={submit} noValidate aria-label={title}>
      <Stack gap="sm">
        <TextInput label="Name" withAsterisk {...form.getInputProps('name')} />
        <TextInput
          label="Email"
          type="email"
          withAsterisk
          description="Signs in with it"
          {...form.getInputProps('email')}
        />
        <PasswordInput
          label="Password"
          autoComplete="new-password"
          description={
            editing
              ? 'Empty: unchanged. A new one signs the user out everywhere.'
              : 'At least 8 characters; without one the user cannot sign in to the dashboard'
          }
          {...form.getInputProps('password')}
        />
        <Select
          label="Role"
          withAsterisk
          description="What the user may view and change"
          data={roles.map((r) => ({
            value: r.id,
            label: r.name,
            // The API refuses to hand out a role granting more than the caller holds.
            disabled: r.id !== editing?.role_id && !r.permissions.every(canGrant),
          }))}
          searchable
          allowDeselect={false}
          nothingFoundMessage="No role has this name"
          {...form.getInputProps('role_id')}
        />
        <ErrorAlert error={formError} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={form.submitting}>
            {editing ? 'Save user' : 'Create user'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
