import {
  ActionIcon,
  Button,
  Checkbox,
  Code,
  Divider,
  Group,
  Modal,
  Paper,
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
import { useState } from 'react';
import { RoutingRuleCreateRequest, RoutingRuleUpdateRequest } from '../../api/constraints.gen';
import { api, call } from '../../api/client';
import { useApiForm } from '../../shared/forms/use-api-form';
import { ErrorAlert } from '../../shared/ui/error-alert';
import { IconCheck, IconPlus, IconTrash } from '../../shared/ui/icons';
import { PROVIDER_IDS } from '../providers/provider-helpers';
import {
  caretLines,
  describeProblem,
  emptyTarget,
  routingRuleRequest,
  routingRuleValues,
  SCOPES,
  weightProblem,
  type RoutingRule,
  type RoutingRuleValidation,
  type RoutingRuleValues,
} from './routing-rule-values';

export function RoutingRuleFormModal({
  opened,
  editing,
  onClose,
  onSaved,
}: {
  opened: boolean;
  editing?: RoutingRule;
  onClose: () => void;
  onSaved: (rule: RoutingRule) => void;
}) {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={editing ? `Edit routing rule ${editing.name}` : 'Create a routing rule'}
      size="xl"
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      {opened && <RoutingRuleForm editing={editing} onCancel={onClose} onSaved={onSaved} />}
    </Modal>
  );
}

/**
 * A rule's expression, targets, fallbacks, scope and priority. The expression is checked by the gateway itself
 * (`POST /api/governance/routing-rules/validate`) before the rule is saved, and a problem shows where it is; the
 * other fields are checked against the API's constraints, and a refusal lands on the field it names.
 */
function RoutingRuleForm({
  editing,
  onCancel,
  onSaved,
}: {
  editing?: RoutingRule;
  onCancel: () => void;
  onSaved: (rule: RoutingRule) => void;
}) {
  const { form, formError, onSubmit } = useApiForm<RoutingRuleValues>({
    initialValues: routingRuleValues(editing),
    constraints: editing ? RoutingRuleUpdateRequest : RoutingRuleCreateRequest,
    toRequest: routingRuleRequest,
    validate: (values): Record<string, string> => {
      const weights = weightProblem(values);
      return weights ? { targets: weights } : {};
    },
  });
  /** The gateway's verdict on the expression as it was checked (cleared when the expression changes). */
  const [checked, setChecked] = useState<{ expression: string; result: RoutingRuleValidation }>();
  const [checking, setChecking] = useState(false);

  /** Asks the gateway; true when the expression compiles. A problem lands on the field, with its position. */
  const check = async (expression: string): Promise<boolean> => {
    setChecking(true);
    try {
      const result = await call(
        api.POST('/api/governance/routing-rules/validate', { body: { cel_expression: expression } }),
      );
      setChecked({ expression, result });
      if (!result.valid) form.setFieldError('cel_expression', describeProblem(result));
      else form.clearFieldError('cel_expression');
      return result.valid;
    } finally {
      setChecking(false);
    }
  };

  const submit = onSubmit(async (values) => {
    if (!(await check(values.cel_expression))) return;
    const body = routingRuleRequest(values);
    const saved = editing
      ? await call(
          api.PUT('/api/governance/routing-rules/{rule_id}', { params: { path: { rule_id: editing.id } }, body }),
        )
      : await call(api.POST('/api/governance/routing-rules', { body }));
    onSaved(saved.rule);
  });

  const expression = form.values.cel_expression;
  const verdict = checked?.expression === expression ? checked.result : undefined;
  const targets = form.values.targets;
  const targetsError = form.errors.targets;
  return (
    <form onSubmit={submit} noValidate aria-label={editing ? 'Edit routing rule' : 'Create a routing rule'}>
      <Stack gap="sm">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <TextInput label="Name" withAsterisk {...form.getInputProps('name')} />
          <Switch mt={{ sm: 'xl' }} label="Enabled" {...form.getInputProps('enabled', { type: 'checkbox' })} />
        </SimpleGrid>
        <Textarea label="Description" autosize minRows={1} {...form.getInputProps('description')} />

        <Textarea
          label="CEL expression"
          description='True for the requests this rule routes, e.g. headers["x-tier"] == "premium" && model == "gpt-4o"'
          withAsterisk
          autosize
          minRows={2}
          spellCheck={false}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          {...form.getInputProps('cel_expression')}
        />
        {verdict && !verdict.valid && verdict.position && (
          <Code block aria-label="Where the expression fails">
            {caretLines(expression, verdict.position).join('\n')}
          </Code>
        )}
        <Group gap="xs">
          <Button
            variant="default"
            size="xs"
            loading={checking}
            disabled={expression.trim() === ''}
            onClick={() => void check(expression).catch(() => undefined)}
          >
            Check expression
          </Button>
          {verdict?.valid && (
            <Text size="sm" c="teal.9" role="status">
              <IconCheck size={14} aria-hidden /> The gateway accepts this expression
            </Text>
          )}
        </Group>

        <Divider />
        <Group justify="space-between">
          <Title order={3} size="h5">
            Targets
          </Title>
          <Button
            variant="subtle"
            size="xs"
            leftSection={<IconPlus size={14} aria-hidden />}
            disabled={targets.length >= 20}
            onClick={() => form.insertListItem('targets', { ...emptyTarget(), weight: '' })}
          >
            Add a target
          </Button>
        </Group>
        <Text size="sm" c="dimmed">
          One is picked by weight (the weights sum to 1). A target leaves out what the request keeps: its provider or
          its model.
        </Text>
        {targets.map((_, i) => (
          <Paper key={i} withBorder p="sm" radius="sm" aria-label={`Target ${i + 1}`} component="fieldset">
            <Group align="flex-start" gap="sm" wrap="wrap">
              <Select
                label="Provider"
                data={PROVIDER_IDS}
                searchable
                clearable
                clearButtonProps={{ 'aria-label': `Clear the provider of target ${i + 1}` }}
                w={170}
                {...form.getInputProps(`targets.${i}.provider`)}
              />
              <TextInput
                label="Model"
                style={{ flex: 1, minWidth: 180 }}
                {...form.getInputProps(`targets.${i}.model`)}
              />
              <TextInput label="Key id" w={140} {...form.getInputProps(`targets.${i}.key_id`)} />
              <TextInput label="Weight" inputMode="decimal" w={90} {...form.getInputProps(`targets.${i}.weight`)} />
              <ActionIcon
                mt={28}
                variant="subtle"
                color="red"
                aria-label={`Remove target ${i + 1}`}
                disabled={targets.length === 1}
                onClick={() => form.removeListItem('targets', i)}
              >
                <IconTrash size={16} aria-hidden />
              </ActionIcon>
            </Group>
          </Paper>
        ))}
        {typeof targetsError === 'string' && (
          <Text size="sm" c="red.8" role="alert">
            {targetsError}
          </Text>
        )}
        <TagsInput
          label="Fallbacks"
          description="Tried in order when the target fails: provider/model, or a provider alone. None: the request's own"
          placeholder="anthropic/claude-sonnet-4-5"
          {...form.getInputProps('fallbacks')}
        />

        <Divider />
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
          <Select
            label="Applies to"
            data={SCOPES.map((s) => ({ value: s.value, label: s.label }))}
            allowDeselect={false}
            {...form.getInputProps('scope')}
          />
          <TextInput
            label="Scope id"
            description="The team's, customer's or virtual key's id"
            disabled={form.values.scope === 'global'}
            {...form.getInputProps('scope_id')}
          />
          <TextInput
            label="Priority"
            description="Lower first within its scope"
            inputMode="numeric"
            {...form.getInputProps('priority')}
          />
        </SimpleGrid>
        <Checkbox
          label="Chain: evaluate the rules again with this rule's target"
          {...form.getInputProps('chain_rule', { type: 'checkbox' })}
        />
        {formError !== undefined && <ErrorAlert error={formError} />}
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={form.submitting}>
            {editing ? 'Save rule' : 'Create rule'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
