import {
  ActionIcon,
  Button,
  Checkbox,
  Group,
  Modal,
  MultiSelect,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { CreateAccessProfileRequest, UpdateAccessProfileRequest } from '../../api/constraints.gen';
import { api, call } from '../../api/client';
import { useApiForm } from '../../shared/forms/use-api-form';
import { ErrorAlert } from '../../shared/ui/error-alert';
import { IconPlus, IconTrash } from '../../shared/ui/icons';
import { useToolGroups } from '../mcp-tool-groups/tool-group-queries';
import {
  PROVIDERS,
  templateFormValues,
  templateProblems,
  templateRequest,
  type ProfileView,
  type TemplateFormValues,
} from './profile-helpers';

/**
 * Creates a template (version 1), or edits one (`editing`; the next version). Of the MCP grants, the form picks the
 * tool groups; `mcp_servers` and tool overrides are kept as they are by an edit (the API keeps omitted fields). A
 * refusal lands on the field the API names.
 */
export function TemplateFormModal({
  opened,
  editing,
  onClose,
  onSaved,
}: {
  opened: boolean;
  editing?: ProfileView;
  onClose: () => void;
  onSaved: (profile: ProfileView) => void;
}) {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={editing ? `Edit template ${editing.name}` : 'Add an access profile template'}
      size="lg"
    >
      {opened && <TemplateForm editing={editing} onCancel={onClose} onSaved={onSaved} />}
    </Modal>
  );
}

/** The form's shape of the request, for the constraints: the rows as the API's lists. */
const toRequestShape = (values: TemplateFormValues) => templateRequest(values) as Record<string, unknown>;

/** The API's paths as the form's fields: `provider_configs[0].x` is a provider row, `rate_limit.x` a field of its own. */
function fieldOf(param: string): string | undefined {
  const provider = /^provider_configs\[(\d+)\]\.(allowed_models|all_models_allowed|provider_name)/.exec(param);
  if (provider) return `providers.${provider[1]}.${provider[2] === 'provider_name' ? 'provider_name' : 'models'}`;
  const rate = /^rate_limit\.(\w+)$/.exec(param);
  if (rate) return rate[1];
  if (param.startsWith('mcp_tool_groups')) return 'mcp_tool_groups';
  return undefined;
}

function TemplateForm({
  editing,
  onCancel,
  onSaved,
}: {
  editing?: ProfileView;
  onCancel: () => void;
  onSaved: (profile: ProfileView) => void;
}) {
  const { form, formError, onSubmit } = useApiForm<TemplateFormValues>({
    initialValues: templateFormValues(editing),
    constraints: editing ? UpdateAccessProfileRequest : CreateAccessProfileRequest,
    toRequest: toRequestShape,
    validate: templateProblems,
    fieldOf,
  });
  const toolGroups = useToolGroups();
  const submit = onSubmit(async (values) => {
    const body = templateRequest(values, editing);
    const saved = editing
      ? await call(
          api.PUT('/api/governance/access-profiles/{profile_id}', {
            params: { path: { profile_id: editing.id } },
            body,
          }),
        )
      : await call(api.POST('/api/governance/access-profiles', { body }));
    onSaved(saved.access_profile);
  });
  const { providers, budgets } = form.getValues();
  const providerData = PROVIDERS.map((p) => ({ value: p, label: p }));
  const groupData = [
    ...(toolGroups.data ?? []).map((g) => ({ value: g.id, label: g.name })),
    // A reference to a group that no longer exists stays visible (and removable) instead of vanishing.
    ...form
      .getValues()
      .mcp_tool_groups.filter((id) => !toolGroups.data?.some((g) => g.id === id))
      .map((id) => ({ value: id, label: toolGroups.data ? `${id} (no such group)` : id })),
  ];
  return (
    <form onSubmit={submit} noValidate aria-label={editing ? 'Edit template' : 'Add a template'}>
      <Stack gap="sm">
        <TextInput label="Name" withAsterisk {...form.getInputProps('name')} />
        <Textarea label="Description" autosize minRows={1} maxRows={4} {...form.getInputProps('description')} />
        <TextInput label="Tags" description="Separated by commas" {...form.getInputProps('tags')} />
        <Checkbox label="Active (can be assigned)" {...form.getInputProps('is_active', { type: 'checkbox' })} />

        <Stack gap={4}>
          <Text size="sm" fw={500}>
            Providers and models
          </Text>
          <Text size="xs" c="dimmed">
            No row: the managed keys may use no provider. Models empty: every model of the provider.
          </Text>
          {providers.map((_, index) => (
            <Group key={index} gap="xs" align="flex-start" wrap="nowrap">
              <Select
                style={{ flex: 1 }}
                aria-label={`Provider ${index + 1}`}
                data={providerData}
                searchable
                allowDeselect={false}
                {...form.getInputProps(`providers.${index}.provider_name`)}
              />
              <TextInput
                style={{ flex: 2 }}
                aria-label={`Provider ${index + 1} models`}
                placeholder="every model"
                {...form.getInputProps(`providers.${index}.models`)}
              />
              <ActionIcon
                variant="subtle"
                color="red"
                size="lg"
                aria-label={`Remove provider ${index + 1}`}
                onClick={() => form.removeListItem('providers', index)}
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
              onClick={() => form.insertListItem('providers', { provider_name: 'openai', models: '' })}
            >
              Add provider
            </Button>
          </Group>
        </Stack>

        <Stack gap={4}>
          <Text size="sm" fw={500}>
            Budgets (USD, whole managed key)
          </Text>
          {budgets.map((_, index) => (
            <Group key={index} gap="xs" align="flex-start" wrap="nowrap">
              <NumberInput
                style={{ flex: 1 }}
                aria-label={`Budget ${index + 1} amount`}
                min={0}
                decimalScale={2}
                {...form.getInputProps(`budgets.${index}.max_limit`)}
              />
              <TextInput
                style={{ flex: 1 }}
                aria-label={`Budget ${index + 1} reset`}
                placeholder="1M"
                {...form.getInputProps(`budgets.${index}.reset_duration`)}
              />
              <ActionIcon
                variant="subtle"
                color="red"
                size="lg"
                aria-label={`Remove budget ${index + 1}`}
                onClick={() => form.removeListItem('budgets', index)}
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
              onClick={() => form.insertListItem('budgets', { max_limit: '', reset_duration: '1M' })}
            >
              Add budget
            </Button>
          </Group>
        </Stack>

        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          <NumberInput
            label="Requests per window"
            min={0}
            allowDecimal={false}
            {...form.getInputProps('request_max_limit')}
          />
          <TextInput label="Request window" placeholder="1m" {...form.getInputProps('request_reset_duration')} />
          <NumberInput
            label="Tokens per window"
            min={0}
            allowDecimal={false}
            {...form.getInputProps('token_max_limit')}
          />
          <TextInput label="Token window" placeholder="1h" {...form.getInputProps('token_reset_duration')} />
        </SimpleGrid>
        <MultiSelect
          label="MCP tool groups"
          description="The managed keys may use every tool of these groups (MCP tool groups screen)"
          placeholder={toolGroups.data?.length === 0 ? 'No tool group yet' : 'Pick tool groups'}
          data={groupData}
          searchable
          clearable
          hidePickedOptions
          comboboxProps={{ withinPortal: true }}
          {...form.getInputProps('mcp_tool_groups')}
        />
        {toolGroups.isError && <ErrorAlert error={toolGroups.error} />}
        {formError !== undefined && <ErrorAlert error={formError} />}
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={form.submitting}>
            {editing ? 'Save template' : 'Add template'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
