import { Anchor, Button, Group, Paper, Select, Stack, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { ColumnDef } from '@tanstack/react-table';
import { useEffect, useMemo, useState } from 'react';
import { api, call } from '../../api/client';
import type { Schema } from '../../api/schemas';
import { useCan } from '../../shared/auth/permissions';
import { ServerTable } from '../../shared/table/server-table';
import { ErrorAlert } from '../../shared/ui/error-alert';
import { IconSearch } from '../../shared/ui/icons';
import { filterOwners } from '../teams/owner-helpers';
import {
  findOverride,
  narrowerOverrides,
  patchLines,
  effectiveRates,
  PATCH_FIELDS,
  scopeLabel,
  splitModelId,
  type PricingOverride,
  type PricingPatch,
} from './effective-price';
import { namesOf, useAllOverrides, useProviderKeys, useVirtualKeys } from './models-queries';
import { MODELS_DEFAULTS, REQUEST_TYPES, type ModelsSearch } from './models-search';

type ProviderModel = Schema<'ProviderModel'>;

/** One catalogue model with the override the gateway charges it at (none: the price table's price). */
interface PricedModel {
  id: string;
  name: string;
  provider: string;
  model: string;
  /** The price table's rates (absent: the table does not price the model). */
  catalogue: PricingPatch | undefined;
  applied: PricingOverride | undefined;
  narrower: PricingOverride[];
}

type Names = { virtualKey: (id: string) => string | undefined; providerKey: (id: string) => string | undefined };

function Rates({ rates, none }: { rates: PricingPatch | undefined; none: string }) {
  const lines = rates ? patchLines(rates) : [];
  if (lines.length === 0)
    return (
      <Text size="sm" c="dimmed">
        {none}
      </Text>
    );
  return (
    <Stack gap={2}>
      {lines.map((line) => (
        <Text size="sm" key={line}>
          {line}
        </Text>
      ))}
    </Stack>
  );
}

function EffectivePrice({ row, names }: { row: PricedModel; names: Names }) {
  if (!row.applied && !row.catalogue)
    return (
      <Text size="sm" c="dimmed">
        Unknown: no price and no override
      </Text>
    );
  if (!row.applied)
    return (
      <Stack gap={2}>
        <Rates rates={row.catalogue} none="" />
        <Text size="xs" c="dimmed">
          Catalogue price
        </Text>
      </Stack>
    );
  const partial = PATCH_FIELDS.some(({ field }) => row.applied!.patch[field] === undefined);
  return (
    <Stack gap={2}>
      <Rates rates={effectiveRates(row.catalogue, row.applied)} none="No rate" />
      {partial && (
        <Text size="xs" c="dimmed">
          Rates the override does not set: catalogue
        </Text>
      )}
      <Text size="xs" c="dimmed">
        Override {row.applied.name} · {scopeLabel(row.applied, names)}
      </Text>
    </Stack>
  );
}

function columns(names: Names, vkChosen: boolean): Array<ColumnDef<PricedModel, unknown>> {
  return [
    {
      id: 'model',
      header: 'Model',
      // The requests for the model, with what each was charged, on the request logs screen.
      cell: ({ row }) => (
        <Anchor
          component={Link}
          to="/logs"
          search={{ providers: row.original.provider, models: row.original.model } as never}
          size="sm"
          fw={600}
          aria-label={`Requests for ${row.original.id}`}
          style={{ wordBreak: 'break-word' }}
        >
          {row.original.id}
        </Anchor>
      ),
    },
    {
      id: 'catalogue',
      header: 'Catalogue price',
      cell: ({ row }) => <Rates rates={row.original.catalogue} none="Not in the price table" />,
    },
    {
      id: 'effective',
      header: 'Effective price',
      cell: ({ row }) => <EffectivePrice row={row.original} names={names} />,
    },
    {
      id: 'narrower',
      header: vkChosen ? 'Other overrides' : 'Narrower overrides',
      cell: ({ row }) =>
        row.original.narrower.length === 0 ? (
          <Text size="sm" c="dimmed">
            —
          </Text>
        ) : (
          <Stack gap={2}>
            {row.original.narrower.map((o) => (
              <Text size="xs" key={o.id}>
                {o.name}: {scopeLabel(o, names)}
              </Text>
            ))}
          </Stack>
        ),
    },
  ];
}

function SearchForm({ value, onApply }: { value: string; onApply: (search: string) => void }) {
  const [text, setText] = useState(value);
  useEffect(() => setText(value), [value]);
  return (
    <form
      aria-label="Search models"
      onSubmit={(event) => {
        event.preventDefault();
        onApply(text.trim());
      }}
    >
      <Group gap="xs" align="flex-end">
        <TextInput
          label="Model"
          placeholder="Search by name"
          maxLength={255}
          leftSection={<IconSearch size={16} aria-hidden />}
          style={{ flex: 1, minWidth: 200, maxWidth: 360 }}
          value={text}
          onChange={(event) => setText(event.currentTarget.value)}
        />
        <Button type="submit" variant="default">
          Search
        </Button>
      </Group>
    </form>
  );
}

/**
 * The catalogue (`GET /api/models`: every model a key of a configured provider lists) with, for each model, the
 * price the gateway charges it at for the chosen request type and virtual key: the override its precedence picks
 * (`findOverride`, the gateway's own search), else the catalogue price of the gateway's price table.
 */
export function ModelsTab({ search, go }: { search: ModelsSearch; go: (next: ModelsSearch) => void }) {
  const limit = search.limit ?? MODELS_DEFAULTS.limit;
  const offset = search.offset ?? MODELS_DEFAULTS.offset;
  const requestType = search.request_type ?? MODELS_DEFAULTS.request_type;
  const canList = useCan('ModelProvider:View');
  const models = useQuery({
    queryKey: ['models', 'catalogue'],
    queryFn: ({ signal }) => call(api.GET('/api/models', { signal })),
    enabled: canList,
  });
  const overrides = useAllOverrides();
  const virtualKeys = useVirtualKeys();
  const providerKeys = useProviderKeys();
  const names: Names = useMemo(
    () => ({
      virtualKey: namesOf(virtualKeys.data?.virtual_keys),
      providerKey: namesOf(providerKeys.data?.keys),
    }),
    [virtualKeys.data, providerKeys.data],
  );
  const priced: PricedModel[] = useMemo(() => {
    const all = overrides.data ?? [];
    return (models.data?.models ?? []).map((m: ProviderModel) => {
      const { model } = splitModelId(m.id);
      const request = { provider: m.provider, model, requestType, virtualKeyId: search.vk };
      const applied = findOverride(all, request);
      // What some requests for the model meet instead: a narrower scope than the one applied (another key's…).
      const narrower = narrowerOverrides(all, request).filter((o) => o !== applied);
      return { id: m.id, name: m.id, provider: m.provider, model, catalogue: m.catalogue_price, applied, narrower };
    });
  }, [models.data, overrides.data, requestType, search.vk]);
  const matching = useMemo(() => filterOwners(priced, search.search), [priced, search.search]);
  const rows = matching.slice(offset, offset + limit);
  const cols = useMemo(() => columns(names, !!search.vk), [names, search.vk]);
  const failedKeys = (models.data?.key_statuses ?? []).filter((k) => k.status !== 'success');

  return (
    <Stack gap="md">
      <Paper withBorder p="md" radius="md">
        <Stack gap="sm">
          <Group gap="md" align="flex-end" wrap="wrap">
            <SearchForm value={search.search ?? ''} onApply={(text) => go({ ...search, search: text, offset: 0 })} />
            <Select
              label="Request type"
              data={[...REQUEST_TYPES]}
              value={requestType}
              allowDeselect={false}
              w={200}
              onChange={(value) => go({ ...search, request_type: value ?? undefined })}
            />
            <Select
              label="Priced for virtual key"
              placeholder="Any key without its own override"
              data={(virtualKeys.data?.virtual_keys ?? []).map((vk) => ({ value: vk.id, label: vk.name }))}
              value={search.vk ?? null}
              clearable
              searchable
              w={260}
              onChange={(value) => go({ ...search, vk: value ?? undefined })}
            />
          </Group>
          <Text size="xs" c="dimmed">
            The effective price is what the gateway charges: the pricing override its precedence picks (the most
            specific scope first; in a scope an exact model, then the longest prefix, then the newest), else the
            catalogue price of its price table. An override sets only the rates it names; the others stay the
            catalogue’s.
          </Text>
        </Stack>
      </Paper>
      {!canList && (
        <Paper withBorder p="md" radius="md">
          <Text c="dimmed">Listing the models needs ModelProvider:View; the other tabs do not.</Text>
        </Paper>
      )}
      {models.isError && <ErrorAlert error={models.error} />}
      {overrides.isError && <ErrorAlert error={overrides.error} />}
      {failedKeys.length > 0 && (
        <Text size="sm" c="red.8">
          {failedKeys.length === 1 ? 'One key' : `${failedKeys.length} keys`} could not list their models:{' '}
          {failedKeys.map((k) => `${names.providerKey(k.key_id) ?? k.key_id} (${k.provider})`).join(', ')}
        </Text>
      )}
      {models.isSuccess && matching.length === 0 ? (
        <Paper withBorder p="md" radius="md">
          <Text c="dimmed">
            {search.search
              ? 'No model has a name like this.'
              : 'No model yet: add a provider and a key on the providers screen; their models show here.'}
          </Text>
        </Paper>
      ) : (
        canList &&
        !models.isError && (
          <ServerTable
            label="Models and prices"
            columns={cols}
            rows={rows}
            rowId={(m) => m.id}
            total={matching.length}
            page={{ offset, limit }}
            onPage={(page) => go({ ...search, ...page })}
            loading={models.isPending || overrides.isPending}
            minWidth={760}
            empty={<Text c="dimmed">No model.</Text>}
          />
        )
      )}
    </Stack>
  );
}
