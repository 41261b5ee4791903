import {
  Button,
  Divider,
  Group,
  Modal,
  MultiSelect,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { PricingOverrideCreateRequest, PricingOverrideUpdateRequest } from '../../api/constraints.gen';
import { api, call } from '../../api/client';
import { useApiForm } from '../../shared/forms/use-api-form';
import { ErrorAlert } from '../../shared/ui/error-alert';
import { PATCH_FIELDS, SCOPE_IDS, SCOPE_KINDS, type PricingOverride, type ScopeKind } from './effective-price';
import { useProviderKeys, useVirtualKeys } from './models-queries';
import { REQUEST_TYPES } from './models-search';
import { overrideProblems, overrideRequest, overrideValues, type OverrideValues } from './pricing-values';

/** The scope kinds as a person reads them, most specific first (the gateway's precedence). */
const SCOPE_LABELS: Record<ScopeKind, string> = {
  virtual_key_provider_key: 'A virtual key on one provider key',
  virtual_key_provider: 'A virtual key on one provider',
  virtual_key: 'A virtual key',
  user_provider_key: 'A user on one provider key',
  user_provider: 'A user on one provider',
  user: 'A user',
  provider_key: 'One provider key',
  provider: 'One provider',
  global: 'Every request',
};

export const PROVIDER_IDS: string[] = (PricingOverrideCreateRequest.properties.provider_id?.enum ?? []).map(String);

export function OverrideFormModal({
  opened,
  editing,
  onClose,
  onSaved,
}: {
  opened: boolean;
  editing?: PricingOverride;
  onClose: () => void;
  onSaved: (saved: PricingOverride) => void;
}) {
  const title = editing ? `Edit pricing override ${editing.name}` : 'Create a pricing override';
  return (
    <Modal opened={opened} onClose={onClose} title={title} size="lg">
      {opened && <OverrideForm editing={editing} title={title} onCancel={onClose} onSaved={onSaved} />}
    </Modal>
  );
}

/**
 * A pricing override: who it covers (the scope and its ids), which models (an exact name or a prefix ending `*`) and
 * request types, and the rates it sets (typed per 1M tokens, sent per token). A refusal lands on its field.
 */
function OverrideForm({
  editing,
  title,
  onCancel,
  onSaved,
}: {
  editing?: PricingOverride;
  title: string;
  onCancel: () => void;
  onSaved: (saved: PricingOverride) => void;
}) {
  const { form, formError, onSubmit } = useApiForm<OverrideValues>({
    initialValues: overrideValues(editing),
    constraints: editing ? PricingOverrideUpdateRequest : PricingOverrideCreateRequest,
    toRequest: (values) => overrideRequest(values),
    validate: overrideProblems,
    // "patch must set at least one price" names the whole patch: shown on its first rate.
    fieldOf: (param) => (param === 'patch' ? 'patch.input_cost_per_token' : undefined),
  });
  const needed = SCOPE_IDS[form.values.scope_kind];
  const virtualKeys = useVirtualKeys(needed.includes('virtual_key_id'));
  const providerKeys = useProviderKeys(needed.includes('provider_key_id'));
  const submit = onSubmit(async (values) => {
    const body = overrideRequest(values);
    const saved = editing
      ? await call(api.PUT('/api/governance/pricing-overrides/{id}', { params: { path: { id: editing.id } }, body }))
      : await call(api.POST('/api/governance/pricing-overrides', { body }));
    onSaved(saved.pricing_override);
  });
  return (
    <form onSubmit={submit} noValidate aria-label={title}>
      <Stack gap="sm">
        <TextInput label="Name" withAsterisk {...form.getInputProps('name')} />
        <Select
          label="Covers"
          description="The most specific scope that matches a request wins"
          data={SCOPE_KINDS.map((kind) => ({ value: kind, label: SCOPE_LABELS[kind] }))}
          allowDeselect={false}
          {...form.getInputProps('scope_kind')}
        />
        {needed.includes('virtual_key_id') && (
          <Select
            label="Virtual key"
            withAsterisk
            searchable
            data={(virtualKeys.data?.virtual_keys ?? []).map((vk) => ({ value: vk.id, label: vk.name }))}
            {...form.getInputProps('virtual_key_id')}
          />
        )}
        {needed.includes('user_id') && (
          <TextInput
            label="User id"
            withAsterisk
            description="Stored now; applied once requests carry a user"
            {...form.getInputProps('user_id')}
          />
        )}
        {needed.includes('provider_id') && (
          <Select label="Provider" withAsterisk searchable data={PROVIDER_IDS} {...form.getInputProps('provider_id')} />
        )}
        {needed.includes('provider_key_id') && (
          <Select
            label="Provider key"
            withAsterisk
            searchable
            data={(providerKeys.data?.keys ?? []).map((k) => ({ value: k.id, label: `${k.name} (${k.provider})` }))}
            {...form.getInputProps('provider_key_id')}
          />
        )}
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          <Select
            label="Match"
            data={[
              { value: 'exact', label: 'Exact model name' },
              { value: 'wildcard', label: 'Prefix (ends with *)' },
            ]}
            allowDeselect={false}
            {...form.getInputProps('match_type')}
          />
          <TextInput
            label="Model"
            withAsterisk
            description={form.values.match_type === 'exact' ? 'As sent to the provider: gpt-4o-mini' : 'gpt-4o*'}
            {...form.getInputProps('pattern')}
          />
        </SimpleGrid>
        <MultiSelect
          label="Request types"
          withAsterisk
          data={[...REQUEST_TYPES]}
          {...form.getInputProps('request_types')}
        />

        <Divider />
        <Title order={3} size="h5">
          Rates
        </Title>
        <Text size="sm" c="dimmed">
          In USD. Each rate set replaces the catalogue’s; the others stay the catalogue’s.
        </Text>
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          {PATCH_FIELDS.map(({ field, label, unit }) => (
            <TextInput
              key={field}
              label={`${label} (USD per ${unit})`}
              inputMode="decimal"
              {...form.getInputProps(`patch.${field}`)}
            />
          ))}
        </SimpleGrid>

        {formError !== undefined && <ErrorAlert error={formError} />}
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={form.submitting}>
            {editing ? 'Save override' : 'Create override'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
