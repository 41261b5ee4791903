import {
  ActionIcon,
  Button,
  Checkbox,
  Group,
  Modal,
  PasswordInput,
  Select,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { McpClientCreateRequest } from '../../api/constraints.gen';
import { api, call } from '../../api/client';
import { useApiForm } from '../../shared/forms/use-api-form';
import { ErrorAlert } from '../../shared/ui/error-alert';
import { IconPlus, IconTrash } from '../../shared/ui/icons';
import { headersOf, type McpClientCreate, type McpClientView } from './mcp-client-helpers';

interface McpClientFormValues extends Record<string, unknown> {
  name: string;
  connection_type: 'http' | 'sse';
  connection_string: string;
  headers: Array<{ name: string; value: string }>;
  allow_on_all_virtual_keys: boolean;
}

const createRequest = (values: McpClientFormValues): McpClientCreate => {
  const headers = headersOf(values.headers);
  return {
    name: values.name.trim(),
    connection_type: values.connection_type,
    connection_string: values.connection_string.trim(),
    ...(headers ? { headers } : {}),
    allow_on_all_virtual_keys: values.allow_on_all_virtual_keys,
  };
};

/**
 * Adds an MCP server over Streamable HTTP or SSE: its URL and the headers sent to it (values are secrets: typed once,
 * never shown again). stdio servers are declared in the config file, where the gateway's operator decides what runs.
 */
export function McpClientFormModal({
  opened,
  onClose,
  onSaved,
}: {
  opened: boolean;
  onClose: () => void;
  onSaved: (client: McpClientView) => void;
}) {
  return (
    <Modal opened={opened} onClose={onClose} title="Add an MCP server" size="lg">
      {opened && <McpClientForm onCancel={onClose} onSaved={onSaved} />}
    </Modal>
  );
}

function McpClientForm({ onCancel, onSaved }: { onCancel: () => void; onSaved: (client: McpClientView) => void }) {
  const { form, formError, onSubmit } = useApiForm<McpClientFormValues>({
    initialValues: {
      name: '',
      connection_type: 'http',
      connection_string: '',
      headers: [],
      allow_on_all_virtual_keys: false,
    },
    constraints: McpClientCreateRequest,
    toRequest: createRequest,
    validate: (values): Record<string, string> =>
      values.connection_string.trim() ? {} : { connection_string: 'The server URL is required' },
  });
  const submit = onSubmit(async (values) => {
    const saved = await call(api.POST('/api/mcp/client', { body: createRequest(values) }));
    onSaved(saved.client);
  });
  const headers = form.getValues().headers;
  return (
    <form onSubmit={submit} noValidate aria-label="Add an MCP server">
      <Stack gap="sm">
        <TextInput
          label="Name"
          description="Prefixes its tools (<name>-<tool>): letters, digits and _"
          withAsterisk
          {...form.getInputProps('name')}
        />
        <Select
          label="Transport"
          data={[
            { value: 'http', label: 'Streamable HTTP' },
            { value: 'sse', label: 'HTTP with SSE (legacy)' },
          ]}
          allowDeselect={false}
          {...form.getInputProps('connection_type')}
        />
        <TextInput
          label="Server URL"
          placeholder="https://mcp.example.com/mcp"
          withAsterisk
          {...form.getInputProps('connection_string')}
        />
        <Stack gap={4}>
          <Text size="sm" fw={500}>
            Headers
          </Text>
          <Text size="xs" c="dimmed">
            Sent with every request to the server (an Authorization header, an API key). Values may be plain text,
            env.VAR or vault.mount/path; they are stored encrypted and never shown again.
          </Text>
          {headers.map((_, index) => (
            <Group key={index} gap="xs" align="flex-start" wrap="nowrap">
              <TextInput
                style={{ flex: 1 }}
                aria-label={`Header ${index + 1} name`}
                placeholder="Authorization"
                {...form.getInputProps(`headers.${index}.name`)}
              />
              <PasswordInput
                style={{ flex: 2 }}
                aria-label={`Header ${index + 1} value`}
                placeholder="Bearer …"
                {...form.getInputProps(`headers.${index}.value`)}
              />
              <ActionIcon
                variant="subtle"
                color="red"
                size="lg"
                aria-label={`Remove header ${index + 1}`}
                onClick={() => form.removeListItem('headers', index)}
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
              onClick={() => form.insertListItem('headers', { name: '', value: '' })}
            >
              Add header
            </Button>
          </Group>
        </Stack>
        <Checkbox
          label="Every virtual key may use its tools"
          description="Otherwise grant it to virtual keys through the API or the config file"
          {...form.getInputProps('allow_on_all_virtual_keys', { type: 'checkbox' })}
        />
        {formError !== undefined && <ErrorAlert error={formError} />}
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={form.submitting}>
            Add server
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
