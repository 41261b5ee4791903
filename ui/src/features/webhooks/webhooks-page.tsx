import { Badge, Button, Code, Group, Paper, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../../api/client';
import { describeError } from '../../api/errors';
import { GatedButton } from '../../shared/auth/permissions';
import { useConfirm } from '../../shared/ui/confirm';
import { ErrorAlert } from '../../shared/ui/error-alert';
import {
  IconListDetails,
  IconPencil,
  IconPlayerPlay,
  IconPlus,
  IconRotateClockwise,
  IconTrash,
} from '../../shared/ui/icons';
import { Page } from '../../shared/ui/page';
import { DeliveryLog } from './delivery-log';
import { webhooksRoute } from './route';
import { SecretModal } from './secret-modal';
import { WebhookFormModal } from './webhook-form';
import { attemptOutcome, DISMISS, headerSource, REDACTED, type WebhookView } from './webhook-helpers';
import { webhooksSearchOf, type WebhooksSearch } from './webhooks-search';

const ON_COLOR = '#1e6b30';
const OFF_COLOR = 'gray.7';

interface Actions {
  deliveries: (webhook: WebhookView) => void;
  test: (webhook: WebhookView) => Promise<void>;
  edit: (webhook: WebhookView) => void;
  rotate: (webhook: WebhookView) => Promise<void>;
  remove: (webhook: WebhookView) => Promise<void>;
}

function WebhooksTable({ webhooks, openId, actions }: { webhooks: WebhookView[]; openId?: string; actions: Actions }) {
  return (
    <Table.ScrollContainer minWidth={980}>
      <Table verticalSpacing="xs" aria-label="Webhooks">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Name</Table.Th>
            <Table.Th>URL</Table.Th>
            <Table.Th>Headers</Table.Th>
            <Table.Th>Signing secret</Table.Th>
            <Table.Th>State</Table.Th>
            <Table.Th>
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {webhooks.map((webhook) => {
            const headers = Object.entries(webhook.headers);
            return (
              <Table.Tr key={webhook.id} aria-current={webhook.id === openId || undefined}>
                <Table.Td>
                  <Text fw={600} size="sm">
                    {webhook.name}
                  </Text>
                  {webhook.description && (
                    <Text size="xs" c="dimmed">
                      {webhook.description}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td style={{ wordBreak: 'break-all' }}>{webhook.url}</Table.Td>
                <Table.Td>
                  {headers.length === 0
                    ? '—'
                    : headers.map(([name, value]) => (
                        <Text size="sm" key={name}>
                          {name}: {headerSource(value)}
                        </Text>
                      ))}
                </Table.Td>
                <Table.Td>{webhook.secret === REDACTED ? 'Redacted' : <Code>{REDACTED}</Code>}</Table.Td>
                <Table.Td>
                  <Badge
                    variant="filled"
                    color={webhook.enabled ? ON_COLOR : OFF_COLOR}
                    tt="none"
                    style={{ minWidth: 'max-content' }}
                  >
                    {webhook.enabled ? 'enabled' : 'disabled'}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  <Group gap={4} justify="flex-end">
                    <Button
                      size="compact-sm"
                      variant={webhook.id === openId ? 'light' : 'subtle'}
                      leftSection={<IconListDetails size={14} aria-hidden />}
                      aria-label={`Deliveries of ${webhook.name}`}
                      onClick={() => actions.deliveries(webhook)}
                    >
                      Deliveries
                    </Button>
                    <GatedButton
                      permission="Webhooks:Update"
                      size="compact-sm"
                      variant="subtle"
                      leftSection={<IconPlayerPlay size={14} aria-hidden />}
                      aria-label={`Send a test delivery to ${webhook.name}`}
                      onClick={() => void actions.test(webhook)}
                    >
                      Test
                    </GatedButton>
                    <GatedButton
                      permission="Webhooks:Update"
                      size="compact-sm"
                      variant="subtle"
                      leftSection={<IconPencil size={14} aria-hidden />}
                      aria-label={`Edit webhook ${webhook.name}`}
                      onClick={() => actions.edit(webhook)}
                    >
                      Edit
                    </GatedButton>
                    <GatedButton
                      permission="Webhooks:Update"
                      size="compact-sm"
                      variant="subtle"
                      leftSection={<IconRotateClockwise size={14} aria-hidden />}
                      aria-label={`Rotate secret of ${webhook.name}`}
                      onClick={() => void actions.rotate(webhook)}
                    >
                      Rotate secret
                    </GatedButton>
                    <GatedButton
                      permission="Webhooks:Delete"
                      size="compact-sm"
                      variant="subtle"
                      color="red"
                      leftSection={<IconTrash size={14} aria-hidden />}
                      aria-label={`Delete webhook ${webhook.name}`}
                      onClick={() => void actions.remove(webhook)}
                    >
                      Delete
                    </GatedButton>
                  </Group>
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/**
 * Webhooks: the endpoints async jobs report to, created and edited (the signing secret shown once), tested, rotated
 * and deleted; the open one's delivery log with each delivery's status, retry state and error, and redeliver.
 */
export function WebhooksPage() {
  const search = webhooksRoute.useSearch();
  const navigate = webhooksRoute.useNavigate();
  const go = (next: WebhooksSearch, replace = false) => void navigate({ search: webhooksSearchOf(next), replace });
  const queryClient = useQueryClient();
  const confirm = useConfirm();
  const [dialog, setDialog] = useState<{ editing?: WebhookView }>();
  const [secret, setSecret] = useState<{ name: string; secret: string; rotated?: boolean }>();
  const list = useQuery({
    queryKey: ['webhooks', 'list'],
    queryFn: ({ signal }) => call(api.GET('/api/webhooks', { signal })),
  });
  const webhooks = list.data?.webhooks ?? [];
  const open = webhooks.find((webhook) => webhook.id === search.webhook);
  const fail = (error: unknown) => notifications.show({ ...DISMISS, color: 'red', ...describeError(error) });

  const actions: Actions = {
    deliveries: (webhook) => go({ webhook: webhook.id }),
    test: async (webhook) => {
      try {
        const delivery = await call(api.POST('/api/webhooks/{id}/test', { params: { path: { id: webhook.id } } }));
        const attempt = delivery.attempts.at(-1);
        notifications.show(
          delivery.status === 'succeeded'
            ? {
                ...DISMISS,
                color: 'green',
                message: `Test delivery to ${webhook.name} succeeded (${attempt ? attemptOutcome(attempt) : 'no attempt'})`,
              }
            : {
                ...DISMISS,
                color: 'red',
                title: `Test delivery to ${webhook.name} failed`,
                message: attempt ? attemptOutcome(attempt) : 'No attempt was made',
              },
        );
        if (search.webhook !== webhook.id) go({ webhook: webhook.id });
      } catch (error) {
        fail(error);
      }
      await queryClient.invalidateQueries({ queryKey: ['webhooks', 'deliveries', webhook.id] });
    },
    edit: (webhook) => setDialog({ editing: webhook }),
    rotate: async (webhook) => {
      const sure = await confirm({
        title: 'Rotate signing secret',
        message: `Replace the signing secret of ${webhook.name}? Deliveries from now on, pending retries included, are signed with the new one; the old one stops at once.`,
        confirmLabel: `Rotate the secret of ${webhook.name}`,
        danger: true,
      });
      if (!sure) return;
      try {
        const rotated = await call(
          api.POST('/api/webhooks/{id}/rotate-secret', { params: { path: { id: webhook.id } } }),
        );
        setSecret({ name: rotated.name, secret: rotated.secret, rotated: true });
      } catch (error) {
        fail(error);
      }
    },
    remove: async (webhook) => {
      const sure = await confirm({
        title: 'Delete webhook',
        message: `Delete the webhook ${webhook.name}? Its deliveries are deleted with it, and async jobs naming it are refused.`,
        confirmLabel: `Delete ${webhook.name}`,
        danger: true,
      });
      if (!sure) return;
      try {
        const done = await call(api.DELETE('/api/webhooks/{id}', { params: { path: { id: webhook.id } } }));
        notifications.show({ ...DISMISS, color: 'green', message: done.message });
        if (search.webhook === webhook.id) go({}, true);
        queryClient.removeQueries({ queryKey: ['webhooks', 'deliveries', webhook.id] });
        await queryClient.invalidateQueries({ queryKey: ['webhooks', 'list'] });
      } catch (error) {
        fail(error);
      }
    },
  };

  return (
    <Page
      title="Webhooks"
      description="Endpoints the gateway POSTs signed events to (async jobs finishing), with every delivery and its attempts."
      actions={
        <GatedButton
          permission="Webhooks:Create"
          leftSection={<IconPlus size={16} aria-hidden />}
          onClick={() => setDialog({})}
        >
          Add webhook
        </GatedButton>
      }
    >
      {list.isError && <ErrorAlert error={list.error} />}
      <Paper withBorder p="md" radius="md" component="section" aria-labelledby="webhooks">
        <Stack gap="sm">
          <Title order={2} size="h4" id="webhooks">
            Webhooks
          </Title>
          {list.data && webhooks.length === 0 ? (
            <Text c="dimmed" size="sm">
              No webhook yet. Add one, then name it in an async job&apos;s x-gateway-async-webhook header.
            </Text>
          ) : (
            <WebhooksTable webhooks={webhooks} openId={search.webhook} actions={actions} />
          )}
        </Stack>
      </Paper>
      {open ? (
        <DeliveryLog webhook={open} search={search} go={(next) => go(next)} />
      ) : (
        list.data &&
        webhooks.length > 0 && (
          <Text c="dimmed" size="sm">
            {search.webhook ? 'That webhook no longer exists. ' : ''}Choose Deliveries on a webhook to see its delivery
            log.
          </Text>
        )
      )}
      <WebhookFormModal
        opened={dialog !== undefined}
        editing={dialog?.editing}
        onClose={() => setDialog(undefined)}
        onSaved={(saved) => {
          const created = !dialog?.editing;
          setDialog(undefined);
          if (created) setSecret({ name: saved.name, secret: saved.secret });
          else notifications.show({ ...DISMISS, color: 'green', message: `Webhook ${saved.name} saved` });
          void queryClient.invalidateQueries({ queryKey: ['webhooks', 'list'] });
          if (created) go({ webhook: saved.id });
        }}
      />
      <SecretModal shown={secret} onClose={() => setSecret(undefined)} />
    </Page>
  );
}
