import { Button, Group, Modal, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { RoleCreateRequest, RoleUpdateRequest } from '../../api/constraints.gen';
import { api, call } from '../../api/client';
import { gridField } from '../../shared/auth/permission-grid';
import { PermissionGrid, useGrantable } from '../../shared/auth/permission-grid-input';
import { useApiForm } from '../../shared/forms/use-api-form';
import { ErrorAlert } from '../../shared/ui/error-alert';
import { createRoleRequest, roleValues, updateRoleRequest, type Role, type RoleValues } from './users-helpers';

export function RoleFormModal({
  opened,
  editing,
  allPermissions,
  onClose,
  onSaved,
}: {
  opened: boolean;
  editing?: Role;
  /** Every permission the roles list names (the built-in admin holds them all): the grid's rows. */
  allPermissions: readonly string[];
  onClose: () => void;
  onSaved: (saved: Role) => void;
}) {
  const title = editing ? `Edit role ${editing.name}` : 'Create a role';
  return (
    <Modal opened={opened} onClose={onClose} title={title} size="xl">
      {opened && (
        <RoleForm
          editing={editing}
          allPermissions={allPermissions}
          title={title}
          onCancel={onClose}
          onSaved={onSaved}
        />
      )}
    </Modal>
  );
}

/**
 * A custom role: name, description and its permissions ticked in the grid. A refusal (a name taken: 409 on `name`;
 * a permission the caller does not hold: 403 above the form) keeps every tick.
 */
function RoleForm({
  editing,
  allPermissions,
  title,
  onCancel,
  onSaved,
}: {
  editing?: Role;
  allPermissions: readonly string[];
  title: string;
  onCancel: () => void;
  onSaved: (saved: Role) => void;
}) {
  const { form, formError, onSubmit } = useApiForm<RoleValues>({
    initialValues: roleValues(editing),
    constraints: editing ? RoleUpdateRequest : RoleCreateRequest,
    toRequest: (values) => (editing ? updateRoleRequest(values, editing) : createRoleRequest(values)),
    fieldOf: (param) => gridField(param, 'permissions'),
  });
  const { resources, canGrant, clamped } = useGrantable(allPermissions, editing?.permissions);
  const submit = onSubmit(async (values) => {
    const saved = editing
      ? await call(
          api.PUT('/api/governance/rbac/roles/{id}', {
            params: { path: { id: editing.id } },
            body: updateRoleRequest(values, editing),
          }),
        )
      : await call(api.POST('/api/governance/rbac/roles', { body: createRoleRequest(values) }));
    onSaved(saved);
  });
  const granted = form.values.permissions.length;
  return (
    <form onSubmit={submit} noValidate aria-label={title}>
      <Stack gap="sm">
        <TextInput label="Name" withAsterisk {...form.getInputProps('name')} />
        <Textarea label="Description" autosize minRows={1} {...form.getInputProps('description')} />
        <div>
          <Text size="sm" fw={500}>
            Permissions
          </Text>
          <Text size="sm" c="dimmed">
            {granted === 0 ? 'None granted yet.' : `${granted} granted.`} A user of this role may take an action only
            when its cell is ticked.{clamped && ' You can grant only the permissions you hold yourself.'}
          </Text>
        </div>
        <PermissionGrid
          label={editing ? `Permissions of role ${editing.name}` : 'Permissions of the new role'}
          value={form.values.permissions}
          resources={resources}
          canGrant={canGrant}
          onChange={(next) => {
            form.setFieldValue('permissions', next);
            form.clearFieldError('permissions');
          }}
          error={form.errors.permissions as string | undefined}
        />
        <ErrorAlert error={formError} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={form.submitting}>
            {editing ? 'Save role' : 'Create role'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
