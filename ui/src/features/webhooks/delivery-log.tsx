import {
  Badge,
  Button,
  Code,
  Group,
  Modal,
  Paper,
  SegmentedControl,
  Stack,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import { api, call } from '../../api/client';
import { describeError } from '../../api/errors';
import { GatedButton } from '../../shared/auth/permissions';
import { DateTime } from '../../shared/format/date-time';
import { formatLatency } from '../../shared/format/format';
import { ServerTable } from '../../shared/table/server-table';
import { ErrorAlert } from '../../shared/ui/error-alert';
import { IconRefresh } from '../../shared/ui/icons';
import {
  attemptOutcome,
  DELIVERY_STATUS,
  lastError,
  retryState,
  type Delivery,
  type DeliveryStatus,
  type WebhookView,
  DISMISS,
} from './webhook-helpers';
import { deliveriesQueryOf, type WebhooksSearch } from './webhooks-search';

/** Read again this often while a delivery is pending (its attempts happen on the server), else less often. */
const PENDING_REFRESH_MS = 1_000;
const IDLE_REFRESH_MS = 5_000;

export function DeliveryStatusBadge({ status }: { status: DeliveryStatus }) {
  return (
    <Badge variant="filled" color={DELIVERY_STATUS[status].color} tt="none" style={{ minWidth: 'max-content' }}>
      {DELIVERY_STATUS[status].label}
    </Badge>
  );
}

/** One delivery's attempts (when, the receiver's status, the gateway's reason, the answer's first KiB) and payload. */
function AttemptsModal({ delivery, onClose }: { delivery: Delivery | undefined; onClose: () => void }) {
  return (
    <Modal
      opened={delivery !== undefined}
      onClose={onClose}
      title={delivery ? `Delivery ${delivery.event}` : ''}
      size="xl"
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      {delivery && (
        <Stack gap="sm">
          <Group gap="xs">
            <DeliveryStatusBadge status={delivery.status} />
            <Text size="sm">{retryState(delivery, Date.now())}</Text>
          </Group>
          <Text size="xs" c="dimmed">
            Delivery {delivery.id}
            {delivery.redelivery_of ? `, a redelivery of ${delivery.redelivery_of}` : ''}
          </Text>
          {delivery.attempts.length === 0 ? (
            <Text size="sm" c="dimmed">
              No attempt yet.
            </Text>
          ) : (
            <Table.ScrollContainer minWidth={640}>
              <Table verticalSpacing="xs" aria-label="Attempts">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>#</Table.Th>
                    <Table.Th>At</Table.Th>
                    <Table.Th>Outcome</Table.Th>
                    <Table.Th>Took</Table.Th>
                    <Table.Th>Answer</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {delivery.attempts.map((attempt) => (
                    <Table.Tr key={attempt.attempt}>
                      <Table.Td>{attempt.attempt}</Table.Td>
                      <Table.Td>
                        <DateTime value={attempt.at} />
                      </Table.Td>
                      <Table.Td>{attemptOutcome(attempt)}</Table.Td>
                      <Table.Td>{formatLatency(attempt.duration_ms)}</Table.Td>
                      <Table.Td style={{ wordBreak: 'break-all' }}>
                        {attempt.response_excerpt ? <Code>{attempt.response_excerpt}</Code> : '—'}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
          <Text size="sm" fw={500}>
            Payload (the envelope&apos;s data)
          </Text>
          {/* Focusable: it scrolls, and a keyboard must reach what is below the fold. */}
          <Code block style={{ maxHeight: 320, overflow: 'auto' }} tabIndex={0} aria-label="Payload">
            {JSON.stringify(delivery.payload, null, 2)}
          </Code>
        </Stack>
      )}
    </Modal>
  );
}

/**
 * A webhook's delivery log (`GET /api/webhooks/{id}/deliveries`, newest first, read again while one is pending):
 * each delivery's status, retry state and last error; its attempts in a dialog; redeliver.
 */
export function DeliveryLog({
  webhook,
  search,
  go,
}: {
  webhook: WebhookView;
  search: WebhooksSearch;
  go: (next: WebhooksSearch) => void;
}) {
  const queryClient = useQueryClient();
  const query = deliveriesQueryOf(search);
  const [openId, setOpenId] = useState<string>();
  const list = useQuery({
    queryKey: ['webhooks', 'deliveries', webhook.id, query],
    queryFn: ({ signal }) =>
      call(api.GET('/api/webhooks/{id}/deliveries', { params: { path: { id: webhook.id }, query }, signal })),
    placeholderData: keepPreviousData,
    refetchInterval: (q) =>
      q.state.data?.deliveries.some((d) => d.status === 'pending') ? PENDING_REFRESH_MS : IDLE_REFRESH_MS,
  });
  const redeliver = async (delivery: Delivery) => {
    try {
      await call(api.POST('/api/webhooks/deliveries/{id}/redeliver', { params: { path: { id: delivery.id } } }));
      notifications.show({ ...DISMISS, color: 'green', message: `Delivery of ${delivery.event} queued again` });
    } catch (error) {
      notifications.show({ ...DISMISS, color: 'red', ...describeError(error) });
    }
    await queryClient.invalidateQueries({ queryKey: ['webhooks', 'deliveries', webhook.id] });
  };
  const now = list.dataUpdatedAt || Date.now();
  const columns = useMemo<Array<ColumnDef<Delivery, unknown>>>(
    () => [
      {
        id: 'created_at',
        header: 'Created',
        cell: ({ row }) => <DateTime value={row.original.created_at} />,
      },
      {
        id: 'event',
        header: 'Event',
        cell: ({ row }) => (
          <Stack gap={0}>
            <Text size="sm">{row.original.event}</Text>
            {row.original.redelivery_of && (
              <Text size="xs" c="dimmed">
                redelivery
              </Text>
            )}
          </Stack>
        ),
      },
      {
        id: 'status',
        header: 'Status',
        cell: ({ row }) => <DeliveryStatusBadge status={row.original.status} />,
      },
      {
        id: 'retry',
        header: 'Attempts',
        cell: ({ row }) => <Text size="sm">{retryState(row.original, now)}</Text>,
      },
      {
        id: 'error',
        header: 'Last error',
        cell: ({ row }) => (
          <Text size="sm" style={{ wordBreak: 'break-word' }}>
            {lastError(row.original) || '—'}
          </Text>
        ),
      },
      {
        id: 'actions',
        header: () => <VisuallyHidden>Actions</VisuallyHidden>,
        cell: ({ row }) => (
          <Group gap={4} wrap="nowrap" justify="flex-end">
            <Button size="compact-sm" variant="subtle" onClick={() => setOpenId(row.original.id)}>
              Attempts
            </Button>
            <GatedButton
              permission="Webhooks:Update"
              size="compact-sm"
              variant="subtle"
              leftSection={<IconRefresh size={14} aria-hidden />}
              disabled={row.original.status === 'pending'}
              onClick={() => void redeliver(row.original)}
            >
              Redeliver
            </GatedButton>
          </Group>
        ),
      },
    ],
    [now, webhook.id],
  );
  const status = search.status ?? 'all';
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="delivery-log">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Title order={2} size="h4" id="delivery-log">
            Deliveries of {webhook.name}
          </Title>
          <SegmentedControl
            size="xs"
            aria-label="Delivery status"
            value={status}
            data={[
              { value: 'all', label: 'All' },
              { value: 'pending', label: 'Pending' },
              { value: 'succeeded', label: 'Succeeded' },
              { value: 'failed', label: 'Failed' },
            ]}
            onChange={(value) => go({ ...search, status: value === 'all' ? undefined : value, offset: 0 })}
          />
        </Group>
        {list.isError ? (
          <ErrorAlert error={list.error} />
        ) : list.data?.deliveries.length === 0 && query.offset === 0 ? (
          // Empty, the table would be a scrolling box on a phone with nothing in it to focus (axe).
          <Text c="dimmed" size="sm">
            No delivery{search.status ? ` ${search.status}` : ''} yet. Send a test, or name the webhook in an async
            job&apos;s x-gateway-async-webhook header.
          </Text>
        ) : (
          <ServerTable
            label={`Deliveries of ${webhook.name}`}
            columns={columns}
            rows={list.data?.deliveries ?? []}
            rowId={(delivery) => delivery.id}
            total={list.data?.pagination.total_count ?? 0}
            page={{ offset: query.offset, limit: query.limit }}
            onPage={(page) => go({ ...search, ...page })}
            loading={list.isPending}
            pageSizes={[25, 50, 100]}
            minWidth={820}
            empty={
              <Text c="dimmed" size="sm">
                No delivery{search.status ? ` ${search.status}` : ''} yet. Send a test, or name the webhook in an async
                job&apos;s x-gateway-async-webhook header.
              </Text>
            }
          />
        )}
        <Text size="xs" c="dimmed">
          A failed attempt is retried with a doubling wait until the gateway&apos;s webhooks.max_attempts; then the
          delivery is failed. Redeliver sends the same event and payload again as a new delivery.
        </Text>
      </Stack>
      <AttemptsModal
        delivery={list.data?.deliveries.find((d) => d.id === openId)}
        onClose={() => setOpenId(undefined)}
      />
    </Paper>
  );
}
