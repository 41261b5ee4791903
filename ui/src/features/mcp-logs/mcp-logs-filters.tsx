import { Button, Collapse, Group, MultiSelect, SimpleGrid, TagsInput, TextInput } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useEffect } from 'react';
import { ApiError } from '../../api/errors';
import type { Schema } from '../../api/schemas';
import { useApiForm } from '../../shared/forms/use-api-form';
import { fromLocalInput, toLocalInput, type Period } from '../../shared/time/ranges';
import { CustomRangeFields, PeriodSelect } from '../../shared/time/time-range-fields';
import { ErrorAlert } from '../../shared/ui/error-alert';
import { IconFilter, IconSearch } from '../../shared/ui/icons';
import { MCP_LOGS_SEARCH, type McpLogsSearch } from './mcp-logs-search';

const STATUSES = ['success', 'error', 'processing'];
const LIST_FIELDS = ['status', 'tool_names', 'server_labels', 'virtual_key_ids', 'llm_request_ids'] as const;
const NUMBER_FIELDS = ['min_latency', 'max_latency'] as const;
type ListField = (typeof LIST_FIELDS)[number];
type NumberField = (typeof NUMBER_FIELDS)[number];

/** The form's values, named as the API's parameters: lists as arrays, numbers and times as typed. */
export type McpFilterValues = Record<ListField, string[]> &
  Record<NumberField, string> & {
    period: Period | 'custom' | 'all';
    start_time: string;
    end_time: string;
    content_search: string;
  };

const split = (value: string | undefined) => (value ? value.split(',').filter(Boolean) : []);

function valuesOf(search: McpLogsSearch): McpFilterValues {
  const values = {
    period: search.period ?? (search.start_time || search.end_time ? 'custom' : 'all'),
    start_time: toLocalInput(search.start_time),
    end_time: toLocalInput(search.end_time),
    content_search: search.content_search ?? '',
  } as McpFilterValues;
  for (const field of LIST_FIELDS) values[field] = split(search[field]);
  for (const field of NUMBER_FIELDS) values[field] = search[field] === undefined ? '' : String(search[field]);
  return values;
}

/** The request values the form stands for (what the constraints check). */
function requestOf(values: McpFilterValues): Record<string, unknown> {
  const request: Record<string, unknown> = {
    content_search: values.content_search.trim() || undefined,
    start_time: values.period === 'custom' ? fromLocalInput(values.start_time) : undefined,
    end_time: values.period === 'custom' ? fromLocalInput(values.end_time) : undefined,
  };
  for (const field of LIST_FIELDS) request[field] = values[field].length ? values[field].join(',') : undefined;
  for (const field of NUMBER_FIELDS) request[field] = values[field].trim() || undefined;
  return request;
}

function searchOf(values: McpFilterValues, current: McpLogsSearch): McpLogsSearch {
  const next: McpLogsSearch = {
    limit: current.limit,
    sort_by: current.sort_by,
    order: current.order,
    period: values.period === 'custom' || values.period === 'all' ? undefined : values.period,
  };
  for (const [key, value] of Object.entries(requestOf(values))) {
    if (value === undefined) continue;
    (next as Record<string, unknown>)[key] = (NUMBER_FIELDS as readonly string[]).includes(key) ? Number(value) : value;
  }
  return next;
}

/**
 * Every filter of `GET /api/mcp-logs`, checked against the API's own constraints before the list is asked; a refusal
 * the constraints could not foresee comes back on the field the API names.
 */
export function McpLogsFilters({
  search,
  filterData,
  listError,
  onApply,
}: {
  search: McpLogsSearch;
  filterData: Schema<'McpToolLogFilterData'> | undefined;
  listError: unknown;
  onApply: (search: McpLogsSearch) => void;
}) {
  const advancedSet = [...NUMBER_FIELDS, 'virtual_key_ids', 'llm_request_ids'].some(
    (f) => search[f as keyof McpLogsSearch] !== undefined,
  );
  const [more, { toggle, open: showMore }] = useDisclosure(advancedSet);
  const { form, formError, showError, onSubmit } = useApiForm<McpFilterValues>({
    initialValues: valuesOf(search),
    constraints: MCP_LOGS_SEARCH,
    toRequest: requestOf,
  });

  // A link followed, back or forward: the form shows the view's filters.
  const key = JSON.stringify(valuesOf(search));
  useEffect(() => {
    form.setValues(JSON.parse(key) as McpFilterValues);
    form.resetDirty();
  }, [key]);
  useEffect(() => {
    if (!(listError instanceof ApiError) || listError.status !== 400) return;
    showError(listError);
    if (listError.param && [...NUMBER_FIELDS, 'virtual_key_ids', 'llm_request_ids'].includes(listError.param))
      showMore();
  }, [listError]);

  const withSelected = (items: string[] | undefined, selected: string[]) => [
    ...new Set([...(items ?? []), ...selected]),
  ];
  const keys = [
    ...(filterData?.virtual_keys ?? []).map((k) => ({ value: k.id, label: k.name ?? k.id })),
    ...form.values.virtual_key_ids
      .filter((id) => !filterData?.virtual_keys.some((k) => k.id === id))
      .map((id) => ({ value: id, label: id })),
  ];

  return (
    <form onSubmit={onSubmit(async (values) => onApply(searchOf(values, search)))} noValidate aria-label="Filters">
      <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="sm" verticalSpacing="xs">
        <TextInput
          label="Search content"
          placeholder="Text in the arguments or result"
          leftSection={<IconSearch size={16} aria-hidden />}
          {...form.getInputProps('content_search')}
        />
        <PeriodSelect inputProps={form.getInputProps} />
        <MultiSelect label="Status" data={STATUSES} {...form.getInputProps('status')} />
        <TagsInput
          label="Tools"
          data={withSelected(filterData?.tool_names, form.values.tool_names)}
          {...form.getInputProps('tool_names')}
        />
      </SimpleGrid>
      <CustomRangeFields period={form.values.period} inputProps={form.getInputProps} />
      <Collapse expanded={more}>
        <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="sm" verticalSpacing="xs" mt="xs">
          <TagsInput
            label="Servers"
            data={withSelected(filterData?.server_labels, form.values.server_labels)}
            {...form.getInputProps('server_labels')}
          />
          <MultiSelect label="Virtual keys" searchable data={keys} {...form.getInputProps('virtual_key_ids')} />
          <TagsInput label="LLM request ids" {...form.getInputProps('llm_request_ids')} />
          <TextInput label="Min latency (ms)" inputMode="decimal" {...form.getInputProps('min_latency')} />
          <TextInput label="Max latency (ms)" inputMode="decimal" {...form.getInputProps('max_latency')} />
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
          onClick={() => onApply({ limit: search.limit, sort_by: search.sort_by, order: search.order })}
        >
          Clear
        </Button>
      </Group>
    </form>
  );
}
