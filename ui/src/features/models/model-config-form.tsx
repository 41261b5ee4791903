import { Button, Checkbox, Group, Modal, Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { ModelConfigCreateRequest, ModelConfigUpdateRequest } from '../../api/constraints.gen';
import { api, call } from '../../api/client';
import { useApiForm } from '../../shared/forms/use-api-form';
import { ErrorAlert } from '../../shared/ui/error-alert';
import { LimitsFields } from './limits-fields';
import { useVirtualKeys } from './models-queries';
import { PROVIDER_IDS } from './override-form';
import {
  modelConfigLabel,
  modelConfigProblems,
  modelConfigRequest,
  modelConfigValues,
  type ModelConfig,
  type ModelConfigValues,
} from './pricing-values';

const SCOPES = [
  { value: 'global', label: 'Everyone' },
  { value: 'virtual_key', label: 'One virtual key' },
  { value: 'user', label: 'One user' },
];

export function ModelConfigFormModal({
  opened,
  editing,
  onClose,
  onSaved,
}: {
  opened: boolean;
  editing?: ModelConfig;
  onClose: () => void;
  onSaved: (saved: ModelConfig) => void;
}) {
  const title = editing ? `Edit model config ${modelConfigLabel(editing)}` : 'Create a model config';
  return (
    <Modal opened={opened} onClose={onClose} title={title} size="lg">
      {opened && <ModelConfigForm editing={editing} title={title} onCancel={onClose} onSaved={onSaved} />}
    </Modal>
  );
}

/**
 * A model config: budgets and a rate limit over one model (`*` every model), on one provider or all, for everyone,
 * one virtual key or one user (the scope cannot change after creation).
 */
function ModelConfigForm({
  editing,
  title,
  onCancel,
  onSaved,
}: {
  editing?: ModelConfig;
  title: string;
  onCancel: () => void;
  onSaved: (saved: ModelConfig) => void;
}) {
  const { form, formError, onSubmit } = useApiForm<ModelConfigValues>({
    initialValues: modelConfigValues(editing),
    constraints: editing ? ModelConfigUpdateRequest : ModelConfigCreateRequest,
    toRequest: (values) => (editing ? modelConfigRequest(values, true) : modelConfigRequest(values, false)),
    validate: modelConfigProblems,
  });
  const virtualKeys = useVirtualKeys(form.values.scope === 'virtual_key');
  const submit = onSubmit(async (values) => {
    const saved = editing
      ? await call(
          api.PUT('/api/governance/model-configs/{mc_id}', {
            params: { path: { mc_id: editing.id } },
            body: modelConfigRequest(values, true),
          }),
        )
      : await call(api.POST('/api/governance/model-configs', { body: modelConfigRequest(values, false) }));
    onSaved(saved.model_config);
  });
  return (
    <form onSubmit={submit} noValidate aria-label={title}>
      <Stack gap="sm">
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          <TextInput
            label="Model"
            withAsterisk
            description="As requested (gpt-4o-mini), or * for every model"
            {...form.getInputProps('model_name')}
          />
          <Select
            label="Provider"
            placeholder="Every provider"
            description="Blank: on every provider"
            clearable
            searchable
            data={PROVIDER_IDS}
            {...form.getInputProps('provider')}
            value={form.values.provider || null}
            onChange={(value: string | null) => form.setFieldValue('provider', value ?? '')}
          />
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          <Select
            label="Covers"
            data={SCOPES}
            allowDeselect={false}
            disabled={!!editing}
            description={editing ? 'Set at creation' : undefined}
            {...form.getInputProps('scope')}
          />
          {form.values.scope === 'virtual_key' && (
            <Select
              label="Virtual key"
              withAsterisk
              searchable
              disabled={!!editing}
              data={(virtualKeys.data?.virtual_keys ?? []).map((vk) => ({ value: vk.id, label: vk.name }))}
              {...form.getInputProps('scope_id')}
            />
          )}
          {form.values.scope === 'user' && (
            <TextInput label="User id" withAsterisk disabled={!!editing} {...form.getInputProps('scope_id')} />
          )}
        </SimpleGrid>
        {!editing && (
          <Checkbox
            label="Budgets reset on calendar boundaries by default"
            {...form.getInputProps('calendar_aligned', { type: 'checkbox' })}
          />
        )}
        <LimitsFields form={form} covers="every request for this model" editing={!!editing} />
        {formError !== undefined && <ErrorAlert error={formError} />}
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={form.submitting}>
            {editing ? 'Save model config' : 'Create model config'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
