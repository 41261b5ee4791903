import {
  ActionIcon,
  Anchor,
  Autocomplete,
  Badge,
  Button,
  Code,
  CopyButton,
  Group,
  Paper,
  Select,
  Text,
  Tooltip,
} from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { ColumnDef } from '@tanstack/react-table';
import { useEffect, useMemo, useState } from 'react';
import { api, call } from '../../api/client';
import { useCan } from '../../shared/auth/permissions';
import { DateTime } from '../../shared/format/date-time';
import { ServerTable } from '../../shared/table/server-table';
import { ErrorAlert } from '../../shared/ui/error-alert';
import { IconCheck, IconCopy } from '../../shared/ui/icons';
import { Page } from '../../shared/ui/page';
import {
  ASYNC_JOB_STATUS,
  ASYNC_JOB_STATUSES,
  ASYNC_TYPES,
  asyncJobsQueryOf,
  asyncJobsSearchOf,
  jobErrorText,
  runTime,
  statusText,
  unfinished,
  type AsyncJob,
  type AsyncJobsQuery,
} from './async-job-helpers';
import { asyncJobsRoute } from './route';

/** Read again this often while a job on the page is unfinished, else less often (new jobs arrive from /v1). */
const ACTIVE_REFRESH_MS = 2_000;
const IDLE_REFRESH_MS = 10_000;

/** The type filter: any async type or provider route, applied on Enter or when one is picked. */
function TypeFilter({ value, onApply }: { value: string; onApply: (type: string) => void }) {
  const [text, setText] = useState(value);
  useEffect(() => setText(value), [value]);
  return (
    <form
      aria-label="Type filter"
      onSubmit={(event) => {
        event.preventDefault();
        onApply(text.trim());
      }}
    >
      <Group gap="xs" align="flex-end">
        <Autocomplete
          label="Type"
          placeholder="Any type"
          data={ASYNC_TYPES}
          value={text}
          onChange={setText}
          onOptionSubmit={(type) => onApply(type)}
          w={220}
        />
        <Button type="submit" variant="default">
          Apply
        </Button>
      </Group>
    </form>
  );
}

/**
 * Async jobs (`GET /api/async-jobs`): every key's jobs newest first, filtered by status and type in the URL, each with
 * its status, attempts, timing, webhook and, when it failed, its error. The management API never returns a job's
 * request or result: the job's owner reads the result with its virtual key (docs/async.md).
 */
export function AsyncJobsPage() {
  const search = asyncJobsRoute.useSearch();
  const navigate = asyncJobsRoute.useNavigate();
  const go = (next: AsyncJobsQuery) => void navigate({ search: asyncJobsSearchOf(next) });
  const query = asyncJobsQueryOf(search);
  const list = useQuery({
    queryKey: ['async-jobs', 'list', query],
    queryFn: ({ signal }) => call(api.GET('/api/async-jobs', { params: { query }, signal })),
    placeholderData: keepPreviousData,
    refetchInterval: (q) => (q.state.data?.jobs.some(unfinished) ? ACTIVE_REFRESH_MS : IDLE_REFRESH_MS),
  });
  const canSeeWebhooks = useCan('Webhooks:View');
  const webhooks = useQuery({
    queryKey: ['webhooks', 'list'],
    queryFn: ({ signal }) => call(api.GET('/api/webhooks', { signal })),
    enabled: canSeeWebhooks,
  });
  const webhookNames = useMemo(
    () => new Map((webhooks.data?.webhooks ?? []).map((webhook) => [webhook.id, webhook.name])),
    [webhooks.data],
  );
  const columns = useMemo<Array<ColumnDef<AsyncJob, unknown>>>(
    () => [
      {
        id: 'created_at',
        header: 'Created',
        cell: ({ row }) => (
          <Group gap={4} wrap="nowrap">
            <DateTime value={row.original.created_at} />
            <CopyButton value={row.original.id}>
              {({ copied, copy }) => (
                <Tooltip label={copied ? 'Copied' : `Copy the job id ${row.original.id}`} withinPortal>
                  <ActionIcon
                    variant="subtle"
                    size="sm"
                    aria-label={`Copy the id of job ${row.original.id}`}
                    onClick={copy}
                  >
                    {copied ? <IconCheck size={14} aria-hidden /> : <IconCopy size={14} aria-hidden />}
                  </ActionIcon>
                </Tooltip>
              )}
            </CopyButton>
          </Group>
        ),
      },
      { id: 'type', header: 'Type', cell: ({ row }) => <Text size="sm">{row.original.type}</Text> },
      {
        id: 'status',
        header: 'Status',
        cell: ({ row }) => (
          <Badge
            variant="filled"
            color={ASYNC_JOB_STATUS[row.original.status].color}
            tt="none"
            style={{ minWidth: 'max-content' }}
          >
            {statusText(row.original)}
          </Badge>
        ),
      },
      {
        id: 'result',
        header: 'Result or error',
        cell: ({ row }) => {
          const job = row.original;
          if (job.status === 'failed')
            return (
              <Text size="sm" c="red.8" style={{ wordBreak: 'break-word' }}>
                {jobErrorText(job.error)}
              </Text>
            );
          if (job.status === 'completed')
            return (
              <Text size="sm">
                Answered {job.status_code ?? ''}; result readable until <DateTime value={job.expires_at} />
              </Text>
            );
          return (
            <Text size="sm" c="dimmed">
              {job.status === 'pending' ? 'Waiting for a worker' : 'Running'}
            </Text>
          );
        },
      },
      {
        id: 'attempts',
        header: 'Runs',
        cell: ({ row }) => (
          <Text size="sm">
            {row.original.attempts}
            {runTime(row.original) ? `, took ${runTime(row.original)}` : ''}
          </Text>
        ),
      },
      {
        id: 'virtual_key',
        header: 'Virtual key',
        cell: ({ row }) =>
          row.original.virtual_key_id ? (
            <Anchor
              component={Link}
              to="/virtual-keys"
              search={{ key: row.original.virtual_key_id } as never}
              size="sm"
            >
              {row.original.virtual_key_id.slice(0, 8)}
            </Anchor>
          ) : (
            '—'
          ),
      },
      {
        id: 'webhook',
        header: 'Webhook',
        cell: ({ row }) => {
          const id = row.original.webhook_id;
          if (!id) return '—';
          return (
            <Anchor component={Link} to="/webhooks" search={{ webhook: id } as never} size="sm">
              {webhookNames.get(id) ?? id.slice(0, 8)}
            </Anchor>
          );
        },
      },
    ],
    [webhookNames],
  );
  const status = search.status ?? 'all';
  return (
    <Page
      title="Async jobs"
      description="Inference requests submitted to /v1/async and run by the workers, newest first."
    >
      <Paper withBorder p="md" radius="md">
        <Group gap="md" align="flex-end" wrap="wrap">
          <Select
            label="Status"
            w={180}
            allowDeselect={false}
            value={status}
            data={[{ value: 'all', label: 'Any status' }, ...ASYNC_JOB_STATUSES.map((s) => ({ value: s, label: s }))]}
            onChange={(value) => go({ ...search, status: value === 'all' || !value ? undefined : value, offset: 0 })}
          />
          <TypeFilter
            value={search.type ?? ''}
            onApply={(type) => go({ ...search, type: type || undefined, offset: 0 })}
          />
          {search.virtual_key_id && (
            <Button variant="light" size="sm" onClick={() => go({ ...search, virtual_key_id: undefined, offset: 0 })}>
              Virtual key {search.virtual_key_id.slice(0, 8)} ×
            </Button>
          )}
        </Group>
      </Paper>
      {list.isError ? (
        <ErrorAlert error={list.error} />
      ) : list.data?.jobs.length === 0 && query.offset === 0 ? (
        // Empty, the table would be a scrolling box on a phone with nothing in it to focus (axe).
        <Text c="dimmed" size="sm">
          No job{search.status ? ` ${search.status}` : ''}
          {search.type ? ` of type ${search.type}` : ''} yet.
        </Text>
      ) : (
        <ServerTable
          label="Async jobs"
          columns={columns}
          rows={list.data?.jobs ?? []}
          rowId={(job) => job.id}
          total={list.data?.pagination.total_count ?? 0}
          page={{ offset: query.offset, limit: query.limit }}
          onPage={(page) => go({ ...search, ...page })}
          loading={list.isPending}
          minWidth={980}
          empty={
            <Text c="dimmed" size="sm">
              No job{search.status ? ` ${search.status}` : ''}
              {search.type ? ` of type ${search.type}` : ''} yet.
            </Text>
          }
        />
      )}
      <Text size="xs" c="dimmed">
        The gateway shows operators a job&apos;s status, timing and error, never its request or result: the result of a
        completed job goes to its owner only, polled with the job&apos;s virtual key at{' '}
        <Code>{'GET /v1/async/<type>/<job id>'}</Code> or delivered to its webhook.
      </Text>
    </Page>
  );
}
