import { Button, Group, Modal, MultiSelect, Stack, Textarea, TextInput } from '@mantine/core';
import { McpToolGroupCreateRequest, McpToolGroupUpdateRequest } from '../../api/constraints.gen';
import { api, call } from '../../api/client';
import { useApiForm } from '../../shared/forms/use-api-form';
import { ErrorAlert } from '../../shared/ui/error-alert';
import { toolPickerData, toolsOfValues, toolValue, type ToolGroupView } from './tool-group-helpers';
import { useMcpClientTools } from './tool-group-queries';

interface ToolGroupFormValues extends Record<string, unknown> {
  name: string;
  description: string;
  /** Picker values (`<client id>/<tool>`). */
  tools: string[];
}

const toRequest = (values: ToolGroupFormValues) => ({
  name: values.name.trim(),
  description: values.description,
  tools: toolsOfValues(values.tools),
});

/** A refusal about one tool (`tools[2].mcp_client_id`) lands on the picker. */
const fieldOf = (param: string) => (param.startsWith('tools') ? 'tools' : undefined);

/**
 * Creates a tool group, or edits one (`editing`; its tools are replaced whole). The picker offers the tools every
 * MCP client lists now. A refusal shows the API's message on its field, with what was typed kept.
 */
export function ToolGroupFormModal({
  opened,
  editing,
  onClose,
  onSaved,
}: {
  opened: boolean;
  editing?: ToolGroupView;
  onClose: () => void;
  onSaved: (group: ToolGroupView) => void;
}) {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={editing ? `Edit tool group ${editing.name}` : 'Add a tool group'}
      size="lg"
    >
      {opened && <ToolGroupForm editing={editing} onCancel={onClose} onSaved={onSaved} />}
    </Modal>
  );
}

function ToolGroupForm({
  editing,
  onCancel,
  onSaved,
}: {
  editing?: ToolGroupView;
  onCancel: () => void;
  onSaved: (group: ToolGroupView) => void;
}) {
  const clients = useMcpClientTools();
  const { form, formError, onSubmit } = useApiForm<ToolGroupFormValues>({
    initialValues: {
      name: editing?.name ?? '',
      description: editing?.description ?? '',
      tools: (editing?.tools ?? []).map(toolValue),
    },
    constraints: editing ? McpToolGroupUpdateRequest : McpToolGroupCreateRequest,
    toRequest,
    fieldOf,
  });
  const submit = onSubmit(async (values) => {
    const body = toRequest(values);
    const saved = editing
      ? await call(api.PUT('/api/mcp/tool-groups/{id}', { params: { path: { id: editing.id } }, body }))
      : await call(api.POST('/api/mcp/tool-groups', { body }));
    onSaved(saved.tool_group);
  });
  const data = toolPickerData(clients.data ?? [], editing?.tools ?? []);
  return (
    <form onSubmit={submit} noValidate aria-label={editing ? 'Edit tool group' : 'Add a tool group'}>
      <Stack gap="sm">
        <TextInput
          label="Name"
          description="Letters, digits and _, not starting with a digit"
          withAsterisk
          {...form.getInputProps('name')}
        />
        <Textarea label="Description" autosize minRows={1} maxRows={4} {...form.getInputProps('description')} />
        <MultiSelect
          label="Tools"
          description="The tools the MCP clients list now, as models see them (client-tool)"
          placeholder={data.length ? 'Pick tools' : 'No MCP client lists a tool'}
          data={data}
          searchable
          clearable
          hidePickedOptions
          maxDropdownHeight={280}
          comboboxProps={{ withinPortal: true }}
          {...form.getInputProps('tools')}
        />
        {clients.isError && <ErrorAlert error={clients.error} />}
        {formError !== undefined && <ErrorAlert error={formError} />}
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={form.submitting}>
            {editing ? 'Save tool group' : 'Add tool group'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
