import {
  Button,
  Checkbox,
  Divider,
  Group,
  Modal,
  Paper,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  TagsInput,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { VirtualKeyCreateRequest, VirtualKeyUpdateRequest } from '../../api/constraints.gen';
import { api, call } from '../../api/client';
import { describeError } from '../../api/errors';
import { useApiForm } from '../../shared/forms/use-api-form';
import { ErrorAlert } from '../../shared/ui/error-alert';
import { IconPlus } from '../../shared/ui/icons';
import { RemoveRowButton } from '../../shared/ui/remove-row-button';
import { PROVIDER_IDS } from '../providers/provider-helpers';
import {
  createRequest,
  emptyBudget,
  emptyMcpGrant,
  emptyProviderConfig,
  updateRequest,
  virtualKeyProblems,
  virtualKeyValues,
  type VirtualKey,
  type VirtualKeyValues,
} from './virtual-key-values';

type Form = UseFormReturnType<VirtualKeyValues>;

/** A list query's failure as a picker's line (a 403 names the permission). */
const failure = (error: unknown) => (error ? describeError(error).message : undefined);

/** Team or customer, picked from the API's lists (read only when that owner is chosen). */
function OwnerFields({ form }: { form: Form }) {
  const owner = form.values.owner;
  const teams = useQuery({
    queryKey: ['virtual-keys', 'owners', 'teams'],
    queryFn: ({ signal }) => call(api.GET('/api/governance/teams', { signal })),
    enabled: owner === 'team',
  });
  const customers = useQuery({
    queryKey: ['virtual-keys', 'owners', 'customers'],
    queryFn: ({ signal }) => call(api.GET('/api/governance/customers', { signal })),
    enabled: owner === 'customer',
  });
  const options = (items: ReadonlyArray<{ id: string; name: string }> | undefined, current: string) => {
    const list = (items ?? []).map((i) => ({ value: i.id, label: i.name }));
    // The stored owner stays selectable (by id) until the list has loaded.
    if (current && !list.some((o) => o.value === current)) list.push({ value: current, label: current });
    return list.sort((a, b) => a.label.localeCompare(b.label));
  };
  return (
    <Stack gap="xs" role="group" aria-label="Owner">
      <Title order={3} size="h5">
        Owner
      </Title>
      <Text size="sm" c="dimmed" id="vk-owner-help">
        A key belongs to a team or to a customer, or to neither; their budgets and limits then cover it too.
      </Text>
      <SegmentedControl
        aria-label="Owner"
        aria-describedby="vk-owner-help"
        data={[
          { value: 'none', label: 'None' },
          { value: 'team', label: 'Team' },
          { value: 'customer', label: 'Customer' },
        ]}
        value={owner}
        onChange={(value) => form.setFieldValue('owner', value)}
        style={{ alignSelf: 'flex-start' }}
      />
      {owner === 'team' && (
        <Select
          label="Team"
          withAsterisk
          searchable
          nothingFoundMessage="No team has this name"
          data={options(teams.data?.teams, form.values.team_id)}
          description={failure(teams.error)}
          {...form.getInputProps('team_id')}
          onChange={(value: string | null) => form.setFieldValue('team_id', value ?? '')}
        />
      )}
      {owner === 'customer' && (
        <Select
          label="Customer"
          withAsterisk
          searchable
          nothingFoundMessage="No customer has this name"
          data={options(customers.data?.customers, form.values.customer_id)}
          description={failure(customers.error)}
          {...form.getInputProps('customer_id')}
          onChange={(value: string | null) => form.setFieldValue('customer_id', value ?? '')}
        />
      )}
    </Stack>
  );
}

/**
 * MCP clients the key may use beyond those open to every key, each with its tools: the clients from
 * `GET /api/mcp/clients` (searched on the server), the tools each lists.
 */
function McpGrantFields({ form }: { form: Form }) {
  const grants = form.values.mcp_configs;
  const [search, setSearch] = useState('');
  const clients = useQuery({
    queryKey: ['virtual-keys', 'mcp-clients', search],
    queryFn: ({ signal }) =>
      call(api.GET('/api/mcp/clients', { params: { query: { limit: 100, search: search || undefined } }, signal })),
    enabled: grants.length > 0,
    placeholderData: (previous) => previous,
  });
  const known = clients.data?.clients ?? [];
  return (
    <Stack gap="xs" role="group" aria-label="MCP clients">
      <Title order={3} size="h5">
        MCP clients
      </Title>
      <Text size="sm" c="dimmed">
        Clients this key may use besides those allowed on every key, and which of their tools (* every tool the client
        executes).
      </Text>
      {grants.map((grant, i) => {
        const client = known.find((c) => c.id === grant.mcp_client_id);
        const tools = ['*', ...(client?.tools.map((t) => t.name) ?? [])];
        const data = known.map((c) => ({ value: c.id, label: c.name }));
        if (grant.mcp_client_id && !client) data.push({ value: grant.mcp_client_id, label: grant.mcp_client_id });
        return (
          <Paper key={i} withBorder p="sm" radius="sm">
            <Group align="flex-start" gap="sm" wrap="wrap">
              <Select
                label={`MCP client ${i + 1}`}
                withAsterisk
                searchable
                w={220}
                data={data}
                nothingFoundMessage="No client has this name"
                description={failure(clients.error)}
                onSearchChange={(text) => {
                  if (!data.some((o) => o.label === text)) setSearch(text);
                }}
                {...form.getInputProps(`mcp_configs.${i}.mcp_client_id`)}
                onChange={(value: string | null) => form.setFieldValue(`mcp_configs.${i}.mcp_client_id`, value ?? '')}
              />
              <TagsInput
                label={`Tools of client ${i + 1}`}
                description="* every tool; otherwise only these"
                data={tools}
                style={{ flex: 1, minWidth: 220 }}
                {...form.getInputProps(`mcp_configs.${i}.tools_to_execute`)}
              />
              <RemoveRowButton
                mt={26}
                label={`Remove MCP client ${client?.name ?? i + 1}`}
                onClick={() => form.removeListItem('mcp_configs', i)}
              />
            </Group>
          </Paper>
        );
      })}
      {form.errors.mcp_configs && (
        <Text size="sm" c="red" role="alert">
          {form.errors.mcp_configs}
        </Text>
      )}
      <Group>
        <Button
          variant="default"
          size="xs"
          leftSection={<IconPlus size={14} aria-hidden />}
          onClick={() => form.insertListItem('mcp_configs', emptyMcpGrant())}
        >
          Add an MCP client
        </Button>
      </Group>
    </Stack>
  );
}

export function VirtualKeyFormModal({
  opened,
  editing,
  onClose,
  onSaved,
}: {
  opened: boolean;
  editing?: VirtualKey;
  onClose: () => void;
  /** The saved key; after a create it carries the value, shown once. */
  onSaved: (key: VirtualKey) => void;
}) {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={editing ? `Edit virtual key ${editing.name}` : 'Create a virtual key'}
      size="xl"
    >
      {opened && <VirtualKeyForm editing={editing} onCancel={onClose} onSaved={onSaved} />}
    </Modal>
  );
}

/**
 * A virtual key's name, state, expiry, owner, allowed providers and models, budgets, rate limit and MCP grants. Checked against the API's own
 * constraints (nested rows too); a refusal lands on the field it names and what was typed stays.
 */
function VirtualKeyForm({
  editing,
  onCancel,
  onSaved,
}: {
  editing?: VirtualKey;
  onCancel: () => void;
  onSaved: (key: VirtualKey) => void;
}) {
  const { form, formError, onSubmit } = useApiForm<VirtualKeyValues>({
    initialValues: virtualKeyValues(editing),
    constraints: editing ? VirtualKeyUpdateRequest : VirtualKeyCreateRequest,
    toRequest: (values) => (editing ? updateRequest(values, editing) : createRequest(values)),
    validate: (values) => virtualKeyProblems(values, editing),
  });
  const submit = onSubmit(async (values) => {
    const saved = editing
      ? await call(
          api.PUT('/api/governance/virtual-keys/{vk_id}', {
            params: { path: { vk_id: editing.id } },
            body: updateRequest(values, editing),
          }),
        )
      : await call(api.POST('/api/governance/virtual-keys', { body: createRequest(values) }));
    onSaved(saved.virtual_key);
  });
  const configs = form.values.provider_configs;
  const budgets = form.values.budgets;
  return (
    <form onSubmit={submit} noValidate aria-label={editing ? 'Edit virtual key' : 'Create a virtual key'}>
      <Stack gap="sm">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <TextInput label="Name" withAsterisk {...form.getInputProps('name')} />
          <Switch mt={{ sm: 'xl' }} label="Active" {...form.getInputProps('is_active', { type: 'checkbox' })} />
        </SimpleGrid>
        <Textarea label="Description" autosize minRows={1} {...form.getInputProps('description')} />
        <TextInput
          type="datetime-local"
          label="Expires"
          description={`In your time zone (${Intl.DateTimeFormat().resolvedOptions().timeZone}); empty: never expires`}
          w={{ base: '100%', xs: 320 }}
          {...form.getInputProps('expires_at')}
        />

        <Divider />
        <OwnerFields form={form} />

        <Divider />
        <Title order={3} size="h5">
          Providers and models
        </Title>
        <Text size="sm" c="dimmed">
          None listed: every configured provider and model. Otherwise only these.
        </Text>
        {configs.map((_, i) => (
          <Paper key={i} withBorder p="sm" radius="sm">
            <Group align="flex-end" gap="sm" wrap="wrap">
              <Select
                label="Provider"
                data={PROVIDER_IDS}
                searchable
                w={180}
                {...form.getInputProps(`provider_configs.${i}.provider`)}
              />
              <TagsInput
                label="Models"
                description="* every model"
                style={{ flex: 1, minWidth: 200 }}
                {...form.getInputProps(`provider_configs.${i}.allowed_models`)}
              />
              <TextInput
                label="Weight"
                inputMode="decimal"
                w={90}
                {...form.getInputProps(`provider_configs.${i}.weight`)}
              />
              <RemoveRowButton
                label={`Remove provider ${configs[i]?.provider || i + 1}`}
                onClick={() => form.removeListItem('provider_configs', i)}
              />
            </Group>
          </Paper>
        ))}
        <Group>
          <Button
            variant="default"
            size="xs"
            leftSection={<IconPlus size={14} aria-hidden />}
            onClick={() => form.insertListItem('provider_configs', emptyProviderConfig())}
          >
            Add a provider
          </Button>
        </Group>

        <Divider />
        <Title order={3} size="h5">
          Budgets
        </Title>
        {budgets.map((_, i) => (
          <Group key={i} align="flex-end" gap="sm" wrap="wrap">
            <TextInput
              label="Limit (USD)"
              inputMode="decimal"
              w={140}
              {...form.getInputProps(`budgets.${i}.max_limit`)}
            />
            <TextInput
              label="Resets every"
              description="1h, 1d, 1w, 1M…"
              w={140}
              {...form.getInputProps(`budgets.${i}.reset_duration`)}
            />
            <Checkbox
              mb={8}
              label="On calendar boundaries"
              {...form.getInputProps(`budgets.${i}.calendar_aligned`, { type: 'checkbox' })}
            />
            <RemoveRowButton label={`Remove budget ${i + 1}`} onClick={() => form.removeListItem('budgets', i)} />
          </Group>
        ))}
        <Group>
          <Button
            variant="default"
            size="xs"
            leftSection={<IconPlus size={14} aria-hidden />}
            onClick={() => form.insertListItem('budgets', emptyBudget())}
          >
            Add a budget
          </Button>
        </Group>

        <Divider />
        <Title order={3} size="h5">
          Rate limit
        </Title>
        <SimpleGrid cols={{ base: 1, xs: 2, sm: 4 }} spacing="sm">
          <TextInput
            label="Request limit"
            inputMode="numeric"
            {...form.getInputProps('rate_limit.request_max_limit')}
          />
          <TextInput
            label="Request window"
            placeholder="1m"
            {...form.getInputProps('rate_limit.request_reset_duration')}
          />
          <TextInput label="Token limit" inputMode="numeric" {...form.getInputProps('rate_limit.token_max_limit')} />
          <TextInput label="Token window" placeholder="1h" {...form.getInputProps('rate_limit.token_reset_duration')} />
        </SimpleGrid>

        <Divider />
        <McpGrantFields form={form} />

        {formError !== undefined && <ErrorAlert error={formError} />}
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={form.submitting}>
            {editing ? 'Save virtual key' : 'Create virtual key'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
