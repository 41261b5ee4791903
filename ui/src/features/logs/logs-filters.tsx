import {
  Button,
  Checkbox,
  Collapse,
  Group,
  MultiSelect,
  Select,
  SimpleGrid,
  TagsInput,
  TextInput,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconFilter, IconSearch } from '../../shared/ui/icons';
import { useEffect } from 'react';
import { ApiError } from '../../api/errors';
import type { Schema } from '../../api/schemas';
import { useApiForm } from '../../shared/forms/use-api-form';
import { CustomRangeFields, PeriodSelect } from '../../shared/time/time-range-fields';
import { ErrorAlert } from '../../shared/ui/error-alert';
import type { RequestLog } from './live-filter';
import { fromLocalInput, toLocalInput, type Period } from '../../shared/time/ranges';
import { LOGS_SEARCH, type LogsSearch } from './logs-search';

const STATUSES = ['success', 'error', 'processing'] satisfies Array<RequestLog['status']>;
const LIST_FIELDS = [
  'status',
  'providers',
  'models',
  'objects',
  'virtual_key_ids',
  'selected_key_ids',
  'team_ids',
  'customer_ids',
  'routing_rule_ids',
] as const;
const NUMBER_FIELDS = ['min_latency', 'max_latency', 'min_tokens', 'max_tokens', 'min_cost', 'max_cost'] as const;

type ListField = (typeof LIST_FIELDS)[number];
type NumberField = (typeof NUMBER_FIELDS)[number];

/** The form's values: what the inputs hold (lists as arrays, numbers and times as typed), named as the API's parameters. */
export type FilterValues = Record<ListField, string[]> &
  Record<NumberField, string> & {
    period: Period | 'custom' | 'all';
    start_time: string;
    end_time: string;
    content_search: string;
    missing_cost_only: boolean;
    cache_hit: '' | 'true' | 'false';
  };

const split = (value: string | undefined) => (value ? value.split(',').filter(Boolean) : []);

export function filterValuesOf(search: LogsSearch): FilterValues {
  const values = {
    period: search.period ?? (search.start_time || search.end_time ? 'custom' : 'all'),
    start_time: toLocalInput(search.start_time),
    end_time: toLocalInput(search.end_time),
    content_search: search.content_search ?? '',
    missing_cost_only: search.missing_cost_only ?? false,
    cache_hit: search.cache_hit === undefined ? '' : String(search.cache_hit),
  } as FilterValues;
  for (const field of LIST_FIELDS) values[field] = split(search[field]);
  for (const field of NUMBER_FIELDS) values[field] = search[field] === undefined ? '' : String(search[field]);
  return values;
}

/** The request values the form stands for, as the API's parameters (what the constraints check). */
function requestOf(values: FilterValues): Record<string, unknown> {
  const request: Record<string, unknown> = {
    content_search: values.content_search.trim() || undefined,
    missing_cost_only: values.missing_cost_only || undefined,
    cache_hit: values.cache_hit === '' ? undefined : values.cache_hit === 'true',
    start_time: values.period === 'custom' ? fromLocalInput(values.start_time) : undefined,
    end_time: values.period === 'custom' ? fromLocalInput(values.end_time) : undefined,
  };
  for (const field of LIST_FIELDS) request[field] = values[field].length ? values[field].join(',') : undefined;
  for (const field of NUMBER_FIELDS) request[field] = values[field].trim() || undefined;
  return request;
}

/** The view's search after applying the form: paging restarts, sort and live mode stay. */
function searchOf(values: FilterValues, current: LogsSearch): LogsSearch {
  const request = requestOf(values);
  const next: LogsSearch = {
    limit: current.limit,
    sort_by: current.sort_by,
    order: current.order,
    live: current.live,
    period: values.period === 'custom' || values.period === 'all' ? undefined : values.period,
  };
  for (const [key, value] of Object.entries(request)) {
    if (value === undefined) continue;
    (next as Record<string, unknown>)[key] = (NUMBER_FIELDS as readonly string[]).includes(key) ? Number(value) : value;
  }
  return next;
}

export interface LogsFiltersProps {
  search: LogsSearch;
  filterData: Schema<'RequestLogFilterData'> | undefined;
  /** The list's refusal: a 400 naming one of these filters marks it. */
  listError: unknown;
  onApply: (search: LogsSearch) => void;
}

/**
 * Every filter of `GET /api/logs`, checked against the API's own constraints before the list is asked; a refusal
 * the constraints could not foresee (a minimum above its maximum) comes back on the field the API names.
 */
export function LogsFilters({ search, filterData, listError, onApply }: LogsFiltersProps) {
  const advancedSet =
    NUMBER_FIELDS.some((f) => search[f] !== undefined) ||
    ['team_ids', 'customer_ids', 'routing_rule_ids', 'selected_key_ids', 'objects'].some(
      (f) => search[f as ListField] !== undefined,
    ) ||
    search.missing_cost_only !== undefined ||
    search.cache_hit !== undefined;
  const [more, { toggle, open: showMore }] = useDisclosure(advancedSet);
  const { form, formError, showError, onSubmit } = useApiForm<FilterValues>({
    initialValues: filterValuesOf(search),
    constraints: LOGS_SEARCH,
    toRequest: requestOf,
  });

  // A link followed, back or forward: the form shows the view's filters.
  const key = JSON.stringify(filterValuesOf(search));
  useEffect(() => {
    form.setValues(JSON.parse(key) as FilterValues);
    form.resetDirty();
  }, [key]);

  useEffect(() => {
    if (!(listError instanceof ApiError) || listError.status !== 400) return;
    showError(listError);
    if (
      listError.param &&
      !['content_search', 'status', 'providers', 'start_time', 'end_time'].includes(listError.param)
    )
      showMore();
  }, [listError]);

  const submit = onSubmit(async (values) => onApply(searchOf(values, search)));
  const named = (items: Array<{ id: string; name: string | null }> | undefined, selected: string[]) => {
    const data = (items ?? []).map((item) => ({ value: item.id, label: item.name ?? item.id }));
    for (const id of selected) if (!data.some((d) => d.value === id)) data.push({ value: id, label: id });
    return data;
  };
  const withSelected = (items: string[] | undefined, selected: string[]) => [
    ...new Set([...(items ?? []), ...selected]),
  ];

  return (
    <form onSubmit={submit} noValidate aria-label="Filters">
      <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="sm" verticalSpacing="xs">
        <TextInput
          label="Search content"
          placeholder="Text in the input or output"
          leftSection={<IconSearch size={16} aria-hidden />}
          {...form.getInputProps('content_search')}
        />
        <PeriodSelect inputProps={form.getInputProps} />
        <MultiSelect label="Status" data={STATUSES} {...form.getInputProps('status')} />
        <TagsInput
          label="Providers"
          data={withSelected(filterData?.providers, form.values.providers)}
          {...form.getInputProps('providers')}
        />
      </SimpleGrid>
      <CustomRangeFields period={form.values.period} inputProps={form.getInputProps} />
      <Collapse expanded={more}>
        <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="sm" verticalSpacing="xs" mt="xs">
          <TagsInput
            label="Models"
            data={withSelected(filterData?.models, form.values.models)}
            {...form.getInputProps('models')}
          />
          <MultiSelect
            label="Virtual keys"
            searchable
            data={named(filterData?.virtual_keys, form.values.virtual_key_ids)}
            {...form.getInputProps('virtual_key_ids')}
          />
          <MultiSelect
            label="Provider keys"
            searchable
            data={named(filterData?.selected_keys, form.values.selected_key_ids)}
            {...form.getInputProps('selected_key_ids')}
          />
          <TagsInput
            label="Request types"
            data={withSelected(filterData?.objects, form.values.objects)}
            {...form.getInputProps('objects')}
          />
          <TagsInput label="Team ids" {...form.getInputProps('team_ids')} />
          <TagsInput label="Customer ids" {...form.getInputProps('customer_ids')} />
          <TagsInput label="Routing rule ids" {...form.getInputProps('routing_rule_ids')} />
          <Select
            label="Cache"
            allowDeselect={false}
            data={[
              { value: '', label: 'Any' },
              { value: 'true', label: 'Only cache hits' },
              { value: 'false', label: 'No cache hits' },
            ]}
            {...form.getInputProps('cache_hit')}
          />
          <TextInput label="Min latency (ms)" inputMode="decimal" {...form.getInputProps('min_latency')} />
          <TextInput label="Max latency (ms)" inputMode="decimal" {...form.getInputProps('max_latency')} />
          <TextInput label="Min tokens" inputMode="numeric" {...form.getInputProps('min_tokens')} />
          <TextInput label="Max tokens" inputMode="numeric" {...form.getInputProps('max_tokens')} />
          <TextInput label="Min cost (USD)" inputMode="decimal" {...form.getInputProps('min_cost')} />
          <TextInput label="Max cost (USD)" inputMode="decimal" {...form.getInputProps('max_cost')} />
          <Checkbox
            mt="lg"
            label="Only unknown cost"
            {...form.getInputProps('missing_cost_only', { type: 'checkbox' })}
          />
        </SimpleGrid>
      </Collapse>
      {formError !== undefined && (
        <div style={{ marginTop: 8 }}>
          <ErrorAlert error={formError} />
        </div>
      )}
      <Group mt="sm" gap="xs">
        <Button type="submit" leftSection={<IconFilter size={16} aria-hidden />}>
          Apply filters
        </Button>
        <Button variant="default" onClick={toggle} aria-expanded={more}>
          {more ? 'Fewer filters' : 'More filters'}
        </Button>
        <Button
          variant="subtle"
          onClick={() =>
            onApply({ limit: search.limit, sort_by: search.sort_by, order: search.order, live: search.live })
          }
        >
          Clear
        </Button>
      </Group>
    </form>
  );
}
