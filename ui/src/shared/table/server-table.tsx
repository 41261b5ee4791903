import { Box, Center, Group, Loader, Pagination, Select, Table, Text, UnstyledButton } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconArrowsSort } from '../ui/icons';
import { flexRender, getCoreRowModel, useReactTable, type ColumnDef, type SortingState } from '@tanstack/react-table';
import type { ReactNode } from 'react';
import { formatNumber } from '../format/format';

export interface PageState {
  offset: number;
  limit: number;
}

export interface SortState {
  /** The API's `sort_by` value; columns that sort carry it as their `id`. */
  by: string;
  order: 'asc' | 'desc';
}

export interface ServerTableProps<Row> {
  /** Names the table for assistive technology ("Request logs"). */
  label: string;
  columns: Array<ColumnDef<Row, unknown>>;
  rows: Row[];
  rowId: (row: Row) => string;
  /** Rows matching the filters on the server, all pages. */
  total: number;
  page: PageState;
  onPage: (page: PageState) => void;
  sort?: SortState;
  onSort?: (sort: SortState) => void;
  onRowClick?: (row: Row) => void;
  /** Marks a row (a new live row, the open one). */
  rowProps?: (row: Row) => { 'data-new'?: boolean; 'aria-current'?: boolean } | undefined;
  loading?: boolean;
  empty: ReactNode;
  pageSizes?: number[];
  /** Below this width the table scrolls sideways in its own box (phones), never squeezing its cells. */
  minWidth?: number;
}

/**
 * A list paged and sorted by the API (`limit`, `offset`, `sort_by`, `order`): the table never holds more than one
 * page. Columns that sort have `id` = the API's sort field and `enableSorting: true`.
 */
export function ServerTable<Row>(props: ServerTableProps<Row>) {
  const { page, sort, total, pageSizes = [25, 50, 100, 200] } = props;
  const sorting: SortingState = sort ? [{ id: sort.by, desc: sort.order === 'desc' }] : [];
  const table = useReactTable({
    data: props.rows,
    columns: props.columns,
    getCoreRowModel: getCoreRowModel(),
    getRowId: props.rowId,
    manualPagination: true,
    manualSorting: true,
    enableSortingRemoval: false,
    defaultColumn: { enableSorting: false },
    state: { sorting },
  });
  const pages = Math.max(1, Math.ceil(total / page.limit));
  const current = Math.floor(page.offset / page.limit) + 1;
  const first = total === 0 ? 0 : page.offset + 1;
  const last = Math.min(page.offset + props.rows.length, Math.max(total, page.offset + props.rows.length));

  const toggleSort = (id: string) => {
    if (!props.onSort) return;
    const order = sort?.by === id && sort.order === 'desc' ? 'asc' : 'desc';
    props.onSort({ by: id, order });
  };

  return (
    <Box pos="relative">
      <Table.ScrollContainer minWidth={props.minWidth ?? 900}>
        <Table
          highlightOnHover={!!props.onRowClick}
          verticalSpacing="xs"
          aria-label={props.label}
          aria-busy={props.loading}
        >
          <Table.Thead>
            {table.getHeaderGroups().map((group) => (
              <Table.Tr key={group.id}>
                {group.headers.map((header) => {
                  const sortable = header.column.getCanSort() && !!props.onSort;
                  const active = sort?.by === header.column.id;
                  const label = flexRender(header.column.columnDef.header, header.getContext());
                  return (
                    <Table.Th
                      key={header.id}
                      aria-sort={active ? (sort.order === 'asc' ? 'ascending' : 'descending') : undefined}
                      style={{ whiteSpace: 'nowrap' }}
                    >
                      {sortable ? (
                        <UnstyledButton onClick={() => toggleSort(header.column.id)} fw={600} fz="sm">
                          <Group gap={4} wrap="nowrap">
                            {label}
                            {active ? (
                              sort.order === 'asc' ? (
                                <IconArrowUp size={14} aria-hidden />
                              ) : (
                                <IconArrowDown size={14} aria-hidden />
                              )
                            ) : (
                              <IconArrowsSort size={14} aria-hidden opacity={0.5} />
                            )}
                          </Group>
                        </UnstyledButton>
                      ) : (
                        label
                      )}
                    </Table.Th>
                  );
                })}
              </Table.Tr>
            ))}
          </Table.Thead>
          <Table.Tbody>
            {table.getRowModel().rows.map((row) => (
              <Table.Tr
                key={row.id}
                // Which record a row shows, for tests and benches (bench/dashboard.mjs counts live rows by it).
                data-row-id={row.id}
                onClick={props.onRowClick ? () => props.onRowClick!(row.original) : undefined}
                style={props.onRowClick ? { cursor: 'pointer' } : undefined}
                {...props.rowProps?.(row.original)}
              >
                {row.getVisibleCells().map((cell) => (
                  <Table.Td key={cell.id}>{flexRender(cell.column.columnDef.cell, cell.getContext())}</Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {props.rows.length === 0 && (
        <Center py="xl">{props.loading ? <Loader size="sm" aria-label="Loading" /> : props.empty}</Center>
      )}
      <Group justify="space-between" mt="sm" wrap="wrap" gap="sm">
        <Text size="sm" c="dimmed" aria-live="polite">
          {formatNumber(first)}–{formatNumber(last)} of {formatNumber(total)}
        </Text>
        <Group gap="sm" wrap="wrap">
          <Select
            aria-label="Rows per page"
            size="xs"
            w={90}
            data={pageSizes.map(String)}
            value={String(page.limit)}
            allowDeselect={false}
            onChange={(value) => value && props.onPage({ offset: 0, limit: Number(value) })}
          />
          <Pagination
            size="sm"
            total={pages}
            value={current}
            onChange={(n) => props.onPage({ offset: (n - 1) * page.limit, limit: page.limit })}
            getControlProps={(control) => ({ 'aria-label': `${control} page` })}
            getItemProps={(n) => ({ 'aria-label': `Page ${n}` })}
            siblings={1}
          />
        </Group>
      </Group>
    </Box>
  );
}
