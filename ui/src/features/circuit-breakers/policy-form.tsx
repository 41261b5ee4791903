import {
  ActionIcon,
  Button,
  Checkbox,
  Group,
  Modal,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { CircuitBreakerPolicyCreateRequest, CircuitBreakerPolicyReplaceRequest } from '../../api/constraints.gen';
import { api, call } from '../../api/client';
import { useApiForm } from '../../shared/forms/use-api-form';
import { ErrorAlert } from '../../shared/ui/error-alert';
import { IconPlus, IconTrash } from '../../shared/ui/icons';
import {
  policyFormValues,
  policyProblems,
  policyRequest,
  PROVIDERS,
  type PolicyFormValues,
  type PolicyView,
} from './circuit-helpers';

/**
 * Creates a policy, or replaces one (`editing`): the primary it watches, the fallback that serves while it is open,
 * the header signals that trip it, and the cooldown. A refusal lands on the field the API names.
 */
export function PolicyFormModal({
  opened,
  editing,
  onClose,
  onSaved,
}: {
  opened: boolean;
  editing?: PolicyView;
  onClose: () => void;
  onSaved: (policy: PolicyView) => void;
}) {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={editing ? `Edit policy ${editing.name}` : 'Add a circuit breaker policy'}
      size="lg"
    >
      {opened && <PolicyForm editing={editing} onCancel={onClose} onSaved={onSaved} />}
    </Modal>
  );
}

/** The API's paths (`condition.signals[0].header_name`) as the form's fields. */
const toRequestShape = (values: PolicyFormValues) => {
  const request = policyRequest(values);
  return { ...request, operator: values.operator, signals: request.condition.signals };
};

function PolicyForm({
  editing,
  onCancel,
  onSaved,
}: {
  editing?: PolicyView;
  onCancel: () => void;
  onSaved: (policy: PolicyView) => void;
}) {
  const { form, formError, showError } = useApiForm<PolicyFormValues>({
    initialValues: policyFormValues(editing),
    constraints: editing ? CircuitBreakerPolicyReplaceRequest : CircuitBreakerPolicyCreateRequest,
    toRequest: toRequestShape,
    validate: policyProblems,
  });
  const submit = form.onSubmit(async (values) => {
    try {
      const body = policyRequest(values);
      const saved = editing
        ? await call(
            api.PUT('/api/circuit-breaker/policies/{name}', { params: { path: { name: editing.name } }, body }),
          )
        : await call(api.POST('/api/circuit-breaker/policies', { body }));
      onSaved(saved);
    } catch (error) {
      // `condition.signals[0].header_name` is the form's `signals.0.header_name`.
      const param = (error as { param?: string }).param;
      const match = param?.match(/^condition\.signals\[(\d+)\]\.(header_name|header_value|header_contains)$/);
      if (match) {
        const field = match[2] === 'header_name' ? 'header_name' : 'text';
        form.setFieldError(`signals.${match[1]}.${field}`, (error as Error).message);
      } else showError(error);
    }
  });
  const signals = form.getValues().signals;
  const providers = PROVIDERS.map((p) => ({ value: p, label: p }));
  return (
    <form onSubmit={submit} noValidate aria-label={editing ? 'Edit policy' : 'Add a policy'}>
      <Stack gap="sm">
        <TextInput
          label="Name"
          description="Lower-case words joined by -; also the key of its main circuit"
          withAsterisk={!editing}
          disabled={!!editing}
          {...form.getInputProps('name')}
        />
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          <Select
            label="Primary provider"
            data={providers}
            searchable
            allowDeselect={false}
            {...form.getInputProps('primary_provider')}
          />
          <TextInput label="Primary model" withAsterisk {...form.getInputProps('primary_model')} />
          <Select
            label="Fallback provider"
            data={providers}
            searchable
            allowDeselect={false}
            {...form.getInputProps('fallback_provider')}
          />
          <TextInput label="Fallback model" withAsterisk {...form.getInputProps('fallback_model')} />
        </SimpleGrid>
        <Stack gap={4}>
          <Group justify="space-between">
            <Text size="sm" fw={500}>
              Signals (response headers of the primary)
            </Text>
            <SegmentedControl
              size="xs"
              aria-label="Trip when"
              data={[
                { value: 'OR', label: 'Any signal' },
                { value: 'AND', label: 'Every signal' },
              ]}
              {...form.getInputProps('operator')}
            />
          </Group>
          {signals.map((signal, index) => (
            <Group key={index} gap="xs" align="flex-start" wrap="nowrap">
              <TextInput
                style={{ flex: 2 }}
                aria-label={`Signal ${index + 1} header`}
                placeholder="x-overloaded"
                {...form.getInputProps(`signals.${index}.header_name`)}
              />
              <Select
                style={{ flex: 1 }}
                aria-label={`Signal ${index + 1} match`}
                data={[
                  { value: 'equals', label: 'equals' },
                  { value: 'contains', label: 'contains' },
                  { value: 'present', label: 'is present' },
                ]}
                allowDeselect={false}
                {...form.getInputProps(`signals.${index}.match`)}
              />
              <TextInput
                style={{ flex: 2 }}
                aria-label={`Signal ${index + 1} value`}
                placeholder={signal.match === 'present' ? '' : 'true'}
                disabled={signal.match === 'present'}
                {...form.getInputProps(`signals.${index}.text`)}
              />
              <ActionIcon
                variant="subtle"
                color="red"
                size="lg"
                aria-label={`Remove signal ${index + 1}`}
                disabled={signals.length === 1}
                onClick={() => form.removeListItem('signals', index)}
              >
                <IconTrash size={16} aria-hidden />
              </ActionIcon>
            </Group>
          ))}
          <Group>
            <Button
              variant="default"
              size="xs"
              leftSection={<IconPlus size={14} aria-hidden />}
              onClick={() => form.insertListItem('signals', { header_name: '', match: 'equals', text: '' })}
            >
              Add signal
            </Button>
          </Group>
        </Stack>
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          <TextInput
            label="Cooldown"
            description="How long a circuit stays open (Go duration)"
            placeholder="30s"
            {...form.getInputProps('default_cooldown')}
          />
          <TextInput
            label="Cooldown header"
            description="A header giving the cooldown in ms, when sent"
            placeholder="x-ratelimit-reset-ms"
            {...form.getInputProps('cooldown_header')}
          />
        </SimpleGrid>
        <Checkbox label="Enabled" {...form.getInputProps('enabled', { type: 'checkbox' })} />
        {formError !== undefined && <ErrorAlert error={formError} />}
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={form.submitting}>
            {editing ? 'Save policy' : 'Add policy'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
