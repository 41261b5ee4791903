import { Group, Progress, Stack, Text } from '@mantine/core';
import { DateTime } from '../../shared/format/date-time';
import { budgetBar, budgetResetAt, rateLimitBars, resetLine, type Bar, type Owner } from './owner-helpers';

/** What carries budgets and a rate limit: a team, a customer, a model config, a provider's governance. */
type Limited = Pick<Owner, 'budgets' | 'rate_limit'>;

function LimitBar({
  title,
  bar,
  window,
  resetAt,
  note,
}: {
  title: string;
  bar: Bar;
  window: string | null;
  resetAt?: Date;
  /** Instead of the reset time, when the API gives none. */
  note?: string;
}) {
  return (
    <Stack gap={4}>
      <Group justify="space-between" gap="xs" wrap="wrap">
        <Text size="sm" fw={600}>
          {title}
        </Text>
        <Text size="sm">
          {bar.label}
          {bar.full && (
            <Text span size="sm" fw={600} c="red.8">
              {' '}
              · used up
            </Text>
          )}
        </Text>
      </Group>
      <Progress value={bar.percent} color={bar.color} size="lg" aria-label={`${title}: ${bar.label}`} />
      <Text size="xs" c="dimmed">
        {note ? `Every ${window ?? '—'} · ${note}` : resetLine(window, resetAt)}
        {!note && resetAt && (
          <>
            {' '}
            <DateTime value={resetAt.toISOString()} />
          </>
        )}
      </Text>
    </Stack>
  );
}

/**
 * An owner's budgets and rate limit as bars with the exact figures and when each resets. The API gives a budget's
 * window start (its reset follows from it) but no window for a rate limit's counters.
 */
export function LimitBars({ owner, none }: { owner: Limited; none?: string }) {
  const limits = rateLimitBars(owner.rate_limit);
  if (owner.budgets.length === 0 && limits.length === 0)
    return <Text size="sm">{none ?? 'No budget or rate limit: only its virtual keys’ own limits apply.'}</Text>;
  return (
    <Stack gap="md">
      {owner.budgets.map((b) => (
        <LimitBar
          key={b.id}
          title={`Budget ${b.reset_duration}${b.calendar_aligned ? ' (calendar)' : ''}`}
          bar={budgetBar(b)}
          window={b.reset_duration}
          resetAt={budgetResetAt(b)}
        />
      ))}
      {limits.map((l) => (
        <LimitBar
          key={l.what}
          title={l.what === 'requests' ? 'Requests' : 'Tokens'}
          bar={l.bar}
          window={l.window}
          note="counted from the first request of each window"
        />
      ))}
    </Stack>
  );
}

/** The list's compact view: one line per budget and limit, with a thin bar. */
export function LimitSummary({ owner }: { owner: Limited }) {
  const limits = rateLimitBars(owner.rate_limit);
  if (owner.budgets.length === 0 && limits.length === 0)
    return (
      <Text size="sm" c="dimmed">
        —
      </Text>
    );
  const rows = [
    ...owner.budgets.map((b) => ({ key: b.id, bar: budgetBar(b), window: b.reset_duration })),
    ...limits.map((l) => ({ key: l.what, bar: l.bar, window: l.window })),
  ];
  return (
    <Stack gap={6} miw={180}>
      {rows.map((r) => (
        <Stack key={r.key} gap={2}>
          <Text size="xs">
            {r.bar.label} / {r.window}
          </Text>
          <Progress value={r.bar.percent} color={r.bar.color} size="sm" aria-label={`${r.bar.label} / ${r.window}`} />
        </Stack>
      ))}
    </Stack>
  );
}
