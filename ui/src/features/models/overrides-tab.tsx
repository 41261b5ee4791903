import { Group, Paper, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { api, call } from '../../api/client';
import { describeError } from '../../api/errors';
import { GatedButton } from '../../shared/auth/permissions';
import { DateTime } from '../../shared/format/date-time';
import { useConfirm } from '../../shared/ui/confirm';
import { ErrorAlert } from '../../shared/ui/error-alert';
import { IconPlus } from '../../shared/ui/icons';
import { patchLines, scopeLabel, SCOPE_KINDS, type PricingOverride } from './effective-price';
import { namesOf, useAllOverrides, useProviderKeys, useVirtualKeys } from './models-queries';
import { OverrideFormModal } from './override-form';
import { EditDeleteButtons } from '../../shared/ui/edit-delete-buttons';

/**
 * Every pricing override in the gateway's order of precedence (the most specific scope first, then as the gateway
 * picks within a scope), created, edited and deleted after a confirmation naming it.
 */
export function OverridesTab() {
  const overrides = useAllOverrides();
  const virtualKeys = useVirtualKeys();
  const providerKeys = useProviderKeys();
  const queryClient = useQueryClient();
  const confirm = useConfirm();
  const [form, setForm] = useState<{ editing?: PricingOverride }>();
  const names = useMemo(
    () => ({ virtualKey: namesOf(virtualKeys.data?.virtual_keys), providerKey: namesOf(providerKeys.data?.keys) }),
    [virtualKeys.data, providerKeys.data],
  );
  const rows = useMemo(
    () =>
      [...(overrides.data ?? [])].sort(
        (a, b) => SCOPE_KINDS.indexOf(a.scope_kind) - SCOPE_KINDS.indexOf(b.scope_kind) || a.name.localeCompare(b.name),
      ),
    [overrides.data],
  );
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['models', 'overrides'] });
  const remove = async (o: PricingOverride) => {
    const sure = await confirm({
      title: 'Delete pricing override',
      message: `Delete the pricing override ${o.name}? Requests it covers are charged at the next matching override, or the catalogue price.`,
      confirmLabel: `Delete ${o.name}`,
      danger: true,
    });
    if (!sure) return;
    try {
      const done = await call(api.DELETE('/api/governance/pricing-overrides/{id}', { params: { path: { id: o.id } } }));
      notifications.show({ color: 'green', message: done.message });
      await refresh();
    } catch (error) {
      notifications.show({ color: 'red', ...describeError(error) });
    }
  };

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-start" wrap="wrap">
        <Text size="sm" c="dimmed" maw={640}>
          Your own rates for some requests, in place of the catalogue’s: by provider, provider key, virtual key or user,
          for one model or every model with a prefix.
        </Text>
        <GatedButton
          permission="Governance:Create"
          leftSection={<IconPlus size={16} aria-hidden />}
          onClick={() => setForm({})}
        >
          Create pricing override
        </GatedButton>
      </Group>
      {overrides.isError && <ErrorAlert error={overrides.error} />}
      {overrides.isSuccess && rows.length === 0 && (
        <Paper withBorder p="md" radius="md">
          <Text c="dimmed">No pricing override: every request is charged at the catalogue price.</Text>
        </Paper>
      )}
      {rows.length > 0 && (
        <Paper withBorder radius="md" style={{ overflowX: 'auto' }}>
          <Table aria-label="Pricing overrides" miw={820} verticalSpacing="sm" highlightOnHover>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Covers</Table.Th>
                <Table.Th>Model</Table.Th>
                <Table.Th>Request types</Table.Th>
                <Table.Th>Rates</Table.Th>
                <Table.Th>Updated</Table.Th>
                <Table.Th>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((o) => (
                <Table.Tr key={o.id}>
                  <Table.Td fw={600} style={{ wordBreak: 'break-word' }}>
                    {o.name}
                  </Table.Td>
                  <Table.Td style={{ wordBreak: 'break-word' }}>{scopeLabel(o, names)}</Table.Td>
                  <Table.Td style={{ wordBreak: 'break-word' }}>
                    {o.match_type === 'exact' ? o.pattern : `${o.pattern} (prefix)`}
                  </Table.Td>
                  <Table.Td>{o.request_types.join(', ')}</Table.Td>
                  <Table.Td>
                    {patchLines(o.patch).map((line) => (
                      <Text size="sm" key={line}>
                        {line}
                      </Text>
                    ))}
                  </Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>
                    <DateTime value={o.updated_at} />
                  </Table.Td>
                  <Table.Td>
                    <Group gap={4} wrap="nowrap" justify="flex-end">
                      <EditDeleteButtons
                        object={`pricing override ${o.name}`}
                        edit={{ permission: 'Governance:Update', onClick: () => setForm({ editing: o }) }}
                        remove={{ permission: 'Governance:Delete', onClick: () => void remove(o) }}
                      />
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Paper>
      )}
      <OverrideFormModal
        opened={form !== undefined}
        editing={form?.editing}
        onClose={() => setForm(undefined)}
        onSaved={(saved) => {
          setForm(undefined);
          notifications.show({ color: 'green', message: `Pricing override ${saved.name} saved` });
          void refresh();
        }}
      />
    </Stack>
  );
}
