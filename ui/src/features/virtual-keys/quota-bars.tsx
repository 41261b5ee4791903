import { Group, Loader, Progress, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { api, call } from '../../api/client';
import type { Schema } from '../../api/schemas';
import { DateTime } from '../../shared/format/date-time';
import { ErrorAlert } from '../../shared/ui/error-alert';
import { levelLabel, usage, usageLabel } from './quota';

type QuotaBudget = Schema<'QuotaBudget'>;
type QuotaRateLimit = Schema<'QuotaRateLimit'>;

function Bar({
  title,
  used,
  limit,
  unit,
  window,
  resetAt,
}: {
  title: string;
  used: number | null;
  limit: number | null;
  unit: 'usd' | 'requests' | 'tokens';
  window: string | null;
  resetAt: string | null;
}) {
  const { percent, color } = usage(used, limit);
  const label = usageLabel(used, limit, unit);
  return (
    <Stack gap={4}>
      <Group justify="space-between" gap="xs" wrap="wrap">
        <Text size="sm" fw={600}>
          {title}
        </Text>
        <Text size="sm">{label}</Text>
      </Group>
      <Progress value={percent} color={color} size="lg" aria-label={`${title}: ${label}`} />
      <Text size="xs" c="dimmed">
        Every {window ?? '—'} · resets <DateTime value={resetAt} />
      </Text>
    </Stack>
  );
}

function budgetBar(b: QuotaBudget) {
  return (
    <Bar
      key={`b-${b.id}`}
      title={`${levelLabel(b.level, b.level_name)}: budget`}
      used={b.current_usage + b.reserved}
      limit={b.max_limit}
      unit="usd"
      window={b.reset_duration}
      resetAt={b.reset_at}
    />
  );
}

function rateLimitBars(r: QuotaRateLimit) {
  const owner = levelLabel(r.level, r.level_name);
  return [
    r.request_max_limit !== null && (
      <Bar
        key={`r-${r.id}`}
        title={`${owner}: requests`}
        used={r.request_current_usage}
        limit={r.request_max_limit}
        unit="requests"
        window={r.request_reset_duration}
        resetAt={r.request_reset_at}
      />
    ),
    r.token_max_limit !== null && (
      <Bar
        key={`t-${r.id}`}
        title={`${owner}: tokens`}
        used={r.token_current_usage}
        limit={r.token_max_limit}
        unit="tokens"
        window={r.token_reset_duration}
        resetAt={r.token_reset_at}
      />
    ),
  ];
}

/**
 * Every budget and rate limit covering a key (the key, its provider configs, team, customers, provider governance)
 * as bars with the exact spend and the reset time, from `GET /api/governance/virtual-keys/{vk_id}/quota`.
 */
export function QuotaBars({ keyId }: { keyId: string }) {
  const quota = useQuery({
    queryKey: ['virtual-keys', 'quota', keyId],
    queryFn: ({ signal }) =>
      call(api.GET('/api/governance/virtual-keys/{vk_id}/quota', { params: { path: { vk_id: keyId } }, signal })),
    refetchInterval: 15_000,
  });
  if (quota.isError) return <ErrorAlert error={quota.error} />;
  if (!quota.data) return <Loader size="xs" aria-label="Loading the budgets and limits" />;
  const { budgets, rate_limits } = quota.data;
  if (budgets.length === 0 && rate_limits.length === 0)
    return <Text size="sm">No budget or rate limit covers this key.</Text>;
  return (
    <Stack gap="md">
      {budgets.map(budgetBar)}
      {rate_limits.flatMap(rateLimitBars)}
    </Stack>
  );
}
