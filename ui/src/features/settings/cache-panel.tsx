import { Group, Paper, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../../api/client';
import { ApiError } from '../../api/errors';
import { GatedButton } from '../../shared/auth/permissions';
import { formatNumber } from '../../shared/format/format';
import { useConfirm } from '../../shared/ui/confirm';
import { ErrorAlert } from '../../shared/ui/error-alert';
import { IconTrash } from '../../shared/ui/icons';
import { Stat } from '../../shared/ui/stat';
import { bytesText, hitRatio, purgeTarget } from './settings-helpers';

const STATS_KEY = ['settings', 'cache-stats'] as const;
const STATS_REFRESH_MS = 5_000;

/**
 * The response cache: its figures since start (`GET /api/cache/stats`, read every 5 s) and removing one entry, named
 * by its cache key or by the request id that wrote it, after a confirmation.
 */
export function CachePanel() {
  const stats = useQuery({
    queryKey: STATS_KEY,
    queryFn: ({ signal }) => call(api.GET('/api/cache/stats', { signal })),
    refetchInterval: STATS_REFRESH_MS,
  });
  return (
    <Stack gap="md">
      <Paper withBorder p="md" radius="md" component="section" aria-labelledby="cache-stats">
        <Stack gap="sm">
          <Title order={2} size="h4" id="cache-stats">
            Statistics
          </Title>
          {stats.isError && <ErrorAlert error={stats.error} />}
          {stats.data && (
            <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }} spacing="sm">
              <Stat label="Hit ratio" {...hitRatio(stats.data)} />
              <Stat label="Hits" value={formatNumber(stats.data.hits)} />
              <Stat label="Misses" value={formatNumber(stats.data.misses)} />
              <Stat
                label="Entries"
                value={formatNumber(stats.data.entries)}
                hint={`${formatNumber(stats.data.semantic_entries)} semantic`}
              />
              <Stat label="Size" value={bytesText(stats.data.bytes)} />
              <Stat
                label="Store"
                value={stats.data.store}
                hint={stats.data.store === 'memory' ? 'this process' : 'shared'}
              />
            </SimpleGrid>
          )}
          <Text size="xs" c="dimmed">
            Since the gateway started (per process in the embedded mode), read every {STATS_REFRESH_MS / 1000} s.
          </Text>
        </Stack>
      </Paper>
      <PurgeEntry onPurged={() => void stats.refetch()} />
    </Stack>
  );
}

function PurgeEntry({ onPurged }: { onPurged: () => void }) {
  const confirm = useConfirm();
  const queryClient = useQueryClient();
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string>();
  const [formError, setFormError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const purge = async () => {
    setFormError(undefined);
    const target = purgeTarget(text);
    if (!target) {
      setProblem('Type a cache key or a request id');
      return;
    }
    setProblem(undefined);
    const named =
      target.kind === 'key' ? `the entry with cache key ${target.key}` : `the entry written by request ${target.id}`;
    const sure = await confirm({
      title: 'Remove cache entry',
      message: `Remove ${named}? The next identical request goes to its provider.`,
      confirmLabel: 'Remove entry',
      danger: true,
    });
    if (!sure) return;
    setBusy(true);
    try {
      const removed =
        target.kind === 'key'
          ? await call(
              api.DELETE('/api/cache/clear-by-key/{cache_key}', { params: { path: { cache_key: target.key } } }),
            )
          : await call(api.DELETE('/api/cache/clear/{request_id}', { params: { path: { request_id: target.id } } }));
      notifications.show({ color: 'green', message: `${removed.message} (${removed.cache_key})` });
      setText('');
      onPurged();
      await queryClient.invalidateQueries({ queryKey: STATS_KEY });
    } catch (error) {
      // Unknown or malformed: the API's message on the field, what was typed kept.
      if (error instanceof ApiError && (error.status === 404 || error.status === 400)) setProblem(error.message);
      else setFormError(error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="cache-purge">
      <form
        aria-label="Remove a cache entry"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void purge();
        }}
      >
        <Stack gap="sm">
          <Title order={2} size="h4" id="cache-purge">
            Remove an entry
          </Title>
          <Group align="flex-start" gap="sm" wrap="wrap">
            <TextInput
              style={{ flex: 1, minWidth: 260 }}
              label="Cache key or request id"
              description="An answer's x-gateway-cache-key (64 hex digits), or the x-request-id of the request that stored it"
              value={text}
              error={problem}
              onChange={(event) => setText(event.currentTarget.value)}
            />
            <GatedButton
              permission="Cache:Delete"
              type="submit"
              color="red"
              mt={{ base: 0, sm: 42 }}
              loading={busy}
              leftSection={<IconTrash size={16} aria-hidden />}
            >
              Remove
            </GatedButton>
          </Group>
          {formError !== undefined && <ErrorAlert error={formError} />}
          <Text size="xs" c="dimmed">
            The API removes one entry at a time: there is no route that empties the whole cache (entries expire by their
            TTL).
          </Text>
        </Stack>
      </form>
    </Paper>
  );
}
