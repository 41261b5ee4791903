import { Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import {
  CustomerCreateRequest,
  CustomerUpdateRequest,
  TeamCreateRequest,
  TeamUpdateRequest,
} from '../../api/constraints.gen';
import { api, call } from '../../api/client';
import { useApiForm } from '../../shared/forms/use-api-form';
import { ErrorAlert } from '../../shared/ui/error-alert';
import { LimitsFields } from '../models/limits-fields';
import {
  ownerProblems,
  ownerRequest,
  ownerValues,
  type Owner,
  type OwnerKind,
  type OwnerValues,
} from './owner-helpers';

const NOUN: Record<OwnerKind, string> = { team: 'team', customer: 'customer' };

export function OwnerFormModal({
  kind,
  opened,
  editing,
  onClose,
  onSaved,
}: {
  kind: OwnerKind;
  opened: boolean;
  editing?: Owner;
  onClose: () => void;
  onSaved: (saved: Owner) => void;
}) {
  const title = editing ? `Edit ${kind} ${editing.name}` : `Create a ${NOUN[kind]}`;
  return (
    <Modal opened={opened} onClose={onClose} title={title} size="lg">
      {opened && <OwnerForm kind={kind} editing={editing} title={title} onCancel={onClose} onSaved={onSaved} />}
    </Modal>
  );
}

/**
 * A team's or customer's name, budgets and rate limit, checked against the API's own constraints; a refusal (a name
 * taken: 409, a window the API cannot read: 400) lands on its field or above the form, and what was typed stays.
 */
function OwnerForm({
  kind,
  editing,
  title,
  onCancel,
  onSaved,
}: {
  kind: OwnerKind;
  editing?: Owner;
  title: string;
  onCancel: () => void;
  onSaved: (saved: Owner) => void;
}) {
  const constraints =
    kind === 'team'
      ? editing
        ? TeamUpdateRequest
        : TeamCreateRequest
      : editing
        ? CustomerUpdateRequest
        : CustomerCreateRequest;
  const { form, formError, onSubmit } = useApiForm<OwnerValues>({
    initialValues: ownerValues(editing),
    constraints,
    toRequest: (values) => ownerRequest(values, !!editing),
    validate: ownerProblems,
  });
  const submit = onSubmit(async (values) => {
    const body = ownerRequest(values, !!editing);
    if (kind === 'team') {
      const saved = editing
        ? await call(api.PUT('/api/governance/teams/{team_id}', { params: { path: { team_id: editing.id } }, body }))
        : await call(api.POST('/api/governance/teams', { body }));
      onSaved(saved.team);
    } else {
      const saved = editing
        ? await call(
            api.PUT('/api/governance/customers/{customer_id}', {
              params: { path: { customer_id: editing.id } },
              body,
            }),
          )
        : await call(api.POST('/api/governance/customers', { body }));
      onSaved(saved.customer);
    }
  });
  return (
    <form onSubmit={submit} noValidate aria-label={title}>
      <Stack gap="sm">
        <TextInput label="Name" withAsterisk {...form.getInputProps('name')} />

        <LimitsFields form={form} covers={`every virtual key of this ${NOUN[kind]}`} editing={editing !== undefined} />

        {formError !== undefined && <ErrorAlert error={formError} />}
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={form.submitting}>
            {editing ? `Save ${NOUN[kind]}` : `Create ${NOUN[kind]}`}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
