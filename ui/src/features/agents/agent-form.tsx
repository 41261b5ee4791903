import {
  ActionIcon,
  Button,
  Checkbox,
  Group,
  Modal,
  MultiSelect,
  Paper,
  SegmentedControl,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { AgentCreateRequest, AgentUpdateRequest } from '../../api/constraints.gen';
import { api, call } from '../../api/client';
import { useApiForm } from '../../shared/forms/use-api-form';
import { ErrorAlert } from '../../shared/ui/error-alert';
import { IconPlus, IconSearch, IconTrash } from '../../shared/ui/icons';
import { CardDetails } from './agent-card';
import {
  agentFormValues,
  agentRequest,
  authFieldOf,
  authProblems,
  emptyHeader,
  type AgentFormValues,
  type AgentView,
  type Inspection,
} from './agent-helpers';

/**
 * Registers an agent by its card URL, or replaces one (`editing`). The card can be previewed first; a refusal (a card
 * the gateway cannot read or accept) lands on the field the API names, and what was typed stays.
 */
export function AgentFormModal({
  opened,
  editing,
  onClose,
  onSaved,
}: {
  opened: boolean;
  editing?: AgentView;
  onClose: () => void;
  onSaved: (agent: AgentView) => void;
}) {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={editing ? `Edit agent ${editing.name}` : 'Register an agent'}
      size="lg"
    >
      {opened && <AgentForm editing={editing} onCancel={onClose} onSaved={onSaved} />}
    </Modal>
  );
}

function useVirtualKeys() {
  return useQuery({
    queryKey: ['agents', 'virtual-keys'],
    queryFn: ({ signal }) =>
      call(
        api.GET('/api/governance/virtual-keys', {
          params: { query: { limit: 100, offset: 0, sort_by: 'name', order: 'asc' } },
          signal,
        }),
      ),
  });
}

function AgentForm({
  editing,
  onCancel,
  onSaved,
}: {
  editing?: AgentView;
  onCancel: () => void;
  onSaved: (agent: AgentView) => void;
}) {
  const { form, formError, showError, onSubmit } = useApiForm<AgentFormValues>({
    initialValues: agentFormValues(editing),
    constraints: editing ? AgentUpdateRequest : AgentCreateRequest,
    toRequest: (values) => agentRequest(values, editing),
    validate: authProblems,
    fieldOf: authFieldOf,
  });
  const [preview, setPreview] = useState<Inspection>();
  const [previewing, setPreviewing] = useState(false);
  const keys = useVirtualKeys();
  const submit = onSubmit(async (values) => {
    const body = agentRequest(values, editing);
    const saved = editing
      ? await call(api.PUT('/api/agents/{name}', { params: { path: { name: editing.name } }, body }))
      : await call(api.POST('/api/agents', { body }));
    onSaved(saved);
  });
  const inspect = async () => {
    const values = form.getValues();
    const { agent_card_url, discovery_auth } = agentRequest(values, editing);
    setPreview(undefined);
    setPreviewing(true);
    try {
      setPreview(await call(api.POST('/api/agents/inspect', { body: { agent_card_url, discovery_auth } })));
    } catch (error) {
      showError(error);
    } finally {
      setPreviewing(false);
    }
  };
  const keyOptions = (keys.data?.virtual_keys ?? []).map((key) => ({ value: key.id, label: key.name }));
  for (const id of form.getValues().virtual_key_ids)
    if (!keyOptions.some((o) => o.value === id)) keyOptions.push({ value: id, label: id });
  return (
    <form onSubmit={submit} noValidate aria-label={editing ? 'Edit agent' : 'Register an agent'}>
      <Stack gap="sm">
        <TextInput
          label="Name"
          description="Lower-case words joined by -; the agent's path under /agents/a2a/"
          withAsterisk={!editing}
          disabled={!!editing}
          {...form.getInputProps('name')}
        />
        <Group align="flex-end" gap="xs" wrap="nowrap">
          <TextInput
            style={{ flex: 1 }}
            label="Agent card URL"
            description="Where the upstream agent serves its A2A card"
            placeholder="https://agent.example.com/.well-known/agent-card.json"
            withAsterisk
            {...form.getInputProps('agent_card_url')}
          />
          <Button
            variant="default"
            leftSection={<IconSearch size={14} aria-hidden />}
            loading={previewing}
            onClick={() => void inspect()}
            mb={form.errors.agent_card_url ? 22 : 0}
          >
            Preview card
          </Button>
        </Group>
        {preview && (
          <Paper withBorder p="sm" radius="sm" component="section" aria-label="Card preview">
            <CardDetails inspection={preview} />
          </Paper>
        )}
        <MultiSelect
          label="Virtual keys allowed"
          description="Keys that may call the agent through the gateway"
          data={keyOptions}
          searchable
          clearable
          {...form.getInputProps('virtual_key_ids')}
        />
        <Group>
          <Checkbox
            label="Any virtual key may call it"
            {...form.getInputProps('allow_by_default', { type: 'checkbox' })}
          />
          <Checkbox label="Enabled" {...form.getInputProps('enabled', { type: 'checkbox' })} />
        </Group>
        <AuthFields form={form} phase="runtime_auth" label="Upstream authentication (A2A calls)" />
        <AuthFields form={form} phase="discovery_auth" label="Card authentication (fetching the card)" />
        {formError !== undefined && <ErrorAlert error={formError} />}
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={form.submitting}>
            {editing ? 'Save agent' : 'Register agent'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

type Form = ReturnType<typeof useApiForm<AgentFormValues>>['form'];

/** None, or headers whose stored values read as redacted (empty keeps them); a stored OAuth setup is kept as it is. */
function AuthFields({ form, phase, label }: { form: Form; phase: 'runtime_auth' | 'discovery_auth'; label: string }) {
  const auth = form.getValues()[phase];
  const types = [
    { value: 'none', label: 'None' },
    { value: 'headers', label: 'Headers' },
    ...(auth.type === 'oauth' ? [{ value: 'oauth', label: 'OAuth (kept)' }] : []),
  ];
  return (
    <Stack gap={4}>
      <Group justify="space-between">
        <Text size="sm" fw={500}>
          {label}
        </Text>
        <SegmentedControl
          size="xs"
          aria-label={label}
          data={types}
          value={auth.type}
          onChange={(type) => {
            form.setFieldValue(`${phase}.type`, type as AgentFormValues['runtime_auth']['type']);
            if (type === 'headers' && auth.headers.length === 0)
              form.setFieldValue(`${phase}.headers`, [emptyHeader()]);
          }}
        />
      </Group>
      {form.errors[`${phase}.type`] && (
        <Text size="xs" c="red.8" role="alert">
          {form.errors[`${phase}.type`]}
        </Text>
      )}
      {auth.type === 'oauth' && (
        <Text size="xs" c="dimmed">
          The stored OAuth client credentials are kept as they are (set through the API).
        </Text>
      )}
      {auth.type === 'headers' &&
        auth.headers.map((row, index) => (
          <Group key={index} gap="xs" align="flex-start" wrap="nowrap">
            <TextInput
              style={{ flex: 1 }}
              aria-label={`${label}: header ${index + 1} name`}
              placeholder="Authorization"
              {...form.getInputProps(`${phase}.headers.${index}.name`)}
            />
            <TextInput
              style={{ flex: 2 }}
              type="password"
              autoComplete="off"
              aria-label={`${label}: header ${index + 1} value`}
              placeholder={row.stored ? `${row.source}: leave empty to keep` : 'Bearer …, env.VAR or vault.…'}
              {...form.getInputProps(`${phase}.headers.${index}.value`)}
            />
            <ActionIcon
              variant="subtle"
              color="red"
              size="lg"
              aria-label={`${label}: remove header ${index + 1}`}
              onClick={() => form.removeListItem(`${phase}.headers`, index)}
            >
              <IconTrash size={16} aria-hidden />
            </ActionIcon>
          </Group>
        ))}
      {auth.type === 'headers' && (
        <Group>
          <Button
            variant="default"
            size="xs"
            leftSection={<IconPlus size={14} aria-hidden />}
            onClick={() => form.insertListItem(`${phase}.headers`, emptyHeader())}
          >
            Add header
          </Button>
        </Group>
      )}
    </Stack>
  );
}
