import { Button, Checkbox, Divider, Group, SimpleGrid, Text, TextInput, Title } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { IconPlus } from '../../shared/ui/icons';
import { RemoveRowButton } from '../../shared/ui/remove-row-button';
import { emptyBudget, type BudgetValues, type RateLimitValues } from '../virtual-keys/virtual-key-values';

interface WithLimits extends Record<string, unknown> {
  budgets: BudgetValues[];
  rate_limit: RateLimitValues;
  reset_usage: boolean;
}

/**
 * The budgets (one per window length) and the rate limit of a team, a customer, a model config or a provider
 * (named as the API's fields, so `budgets[0].reset_duration` lands on its input).
 */
export function LimitsFields<Values extends WithLimits>({
  form,
  covers,
  editing,
}: {
  form: UseFormReturnType<Values>;
  /** What the limits count: "every request for this model". */
  covers: string;
  editing: boolean;
}) {
  const budgets = form.values.budgets;
  return (
    <>
      <Divider />
      <Title order={3} size="h5">
        Budgets
      </Title>
      <Text size="sm" c="dimmed">
        Spending caps in USD over {covers}; one budget per window length.
        {editing && ' A budget that keeps its window keeps its usage.'}
      </Text>
      {budgets.map((_, i) => (
        <Group key={i} align="flex-start" gap="sm" wrap="wrap">
          <TextInput
            label={`Budget ${i + 1} limit (USD)`}
            inputMode="decimal"
            w={170}
            {...form.getInputProps(`budgets.${i}.max_limit`)}
          />
          <TextInput
            label={`Budget ${i + 1} resets every`}
            description="1h, 1d, 1w, 1M…"
            w={170}
            {...form.getInputProps(`budgets.${i}.reset_duration`)}
          />
          <Checkbox
            mt={30}
            label="On calendar boundaries"
            {...form.getInputProps(`budgets.${i}.calendar_aligned`, { type: 'checkbox' })}
          />
          <RemoveRowButton mt={26} label={`Remove budget ${i + 1}`} onClick={() => form.removeListItem('budgets', i)} />
        </Group>
      ))}
      <Group>
        <Button
          variant="default"
          size="xs"
          leftSection={<IconPlus size={14} aria-hidden />}
          onClick={() => form.insertListItem('budgets', { ...emptyBudget(), reset_duration: '1d' } as never)}
        >
          Add a budget
        </Button>
      </Group>

      <Divider />
      <Title order={3} size="h5">
        Rate limit
      </Title>
      <Text size="sm" c="dimmed">
        Requests and tokens over {covers}; all blank: none.
      </Text>
      <SimpleGrid cols={{ base: 1, xs: 2, sm: 4 }} spacing="sm">
        <TextInput label="Request limit" inputMode="numeric" {...form.getInputProps('rate_limit.request_max_limit')} />
        <TextInput
          label="Request window"
          placeholder="1m"
          {...form.getInputProps('rate_limit.request_reset_duration')}
        />
        <TextInput label="Token limit" inputMode="numeric" {...form.getInputProps('rate_limit.token_max_limit')} />
        <TextInput label="Token window" placeholder="1h" {...form.getInputProps('rate_limit.token_reset_duration')} />
      </SimpleGrid>
      {editing && (
        <Checkbox
          label="Reset the usage of its budgets and rate limit to zero"
          {...form.getInputProps('reset_usage', { type: 'checkbox' })}
        />
      )}
    </>
  );
}
