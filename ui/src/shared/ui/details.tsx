import { Code, ScrollArea, Stack, Table, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** A titled part of a detail drawer, a region named by its title. */
export function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack gap="xs" component="section" aria-label={title}>
      <Title order={3} size="h5">
        {title}
      </Title>
      {children}
    </Stack>
  );
}

/** Label/value rows; rows whose value is null or undefined are left out. */
export function Facts({ rows }: { rows: Array<[string, ReactNode]> }) {
  return (
    <Table variant="vertical" layout="fixed" withTableBorder fz="sm">
      <Table.Tbody>
        {rows
          .filter(([, value]) => value !== null && value !== undefined && value !== '')
          .map(([label, value]) => (
            <Table.Tr key={label}>
              <Table.Th w={170}>{label}</Table.Th>
              <Table.Td style={{ wordBreak: 'break-word' }}>{value}</Table.Td>
            </Table.Tr>
          ))}
      </Table.Tbody>
    </Table>
  );
}

/** A value as indented JSON (a string as it is), scrolling past 320 px. */
export function Json({ value }: { value: unknown }) {
  const text = typeof value === 'string' ? value : JSON.stringify(value, null, 2);
  return (
    <ScrollArea.Autosize mah={320} type="auto">
      <Code block fz="xs">
        {text}
      </Code>
    </ScrollArea.Autosize>
  );
}
