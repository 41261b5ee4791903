import { Checkbox, Table, Text, VisuallyHidden } from '@mantine/core';
import { IconCheck } from '../ui/icons';
import { gridOf, gridResources, OPERATIONS, toggle, toggleMany } from './permission-grid';
import { useCaller } from './permissions';

/**
 * Permissions as a grid: resources as rows, View / Create / Update / Delete as columns. Editable, a checkbox per
 * cell named `Resource:Operation`; read-only (a built-in role), a check where granted. A cell the caller may not
 * grant (`canGrant`) is disabled, saying why: the API refuses a grant of what the caller does not hold.
 */
export function PermissionGrid({
  label,
  value,
  resources,
  onChange,
  canGrant = () => true,
  error,
}: {
  /** The table's accessible name ("Permissions of role support"). */
  label: string;
  value: readonly string[];
  resources: readonly string[];
  /** Absent: read-only. */
  onChange?: (next: string[]) => void;
  canGrant?: (permission: string) => boolean;
  error?: string;
}) {
  const rows = gridOf(value, resources);
  return (
    <div>
      {/* A read-only grid has nothing to focus, so it must not scroll sideways: smaller type fits a phone's drawer. */}
      <Table.ScrollContainer minWidth={onChange ? 360 : 0}>
        <Table
          aria-label={label}
          striped
          withTableBorder
          verticalSpacing={4}
          horizontalSpacing={onChange ? 'sm' : 6}
          fz={onChange ? 'sm' : 'xs'}
        >
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Resource</Table.Th>
              {OPERATIONS.map((op) => {
                // Editable: a checkbox under the heading ticks or clears the whole column (the cells the caller may
                // grant), e.g. View on everything for a read-only role.
                const cells = resources.map((resource) => `${resource}:${op}`).filter(canGrant);
                const ticked = cells.filter((cell) => value.includes(cell)).length;
                return (
                  <Table.Th key={op} scope="col" ta="center">
                    {op}
                    {onChange && cells.length > 0 && (
                      <Checkbox
                        mt={4}
                        size="xs"
                        aria-label={`${op} on every resource`}
                        checked={ticked === cells.length}
                        indeterminate={ticked > 0 && ticked < cells.length}
                        onChange={(event) => onChange(toggleMany(value, cells, event.currentTarget.checked))}
                        styles={{ body: { justifyContent: 'center' } }}
                      />
                    )}
                  </Table.Th>
                );
              })}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row) => (
              <Table.Tr key={row.resource}>
                <Table.Th scope="row" fw={500}>
                  {row.resource}
                </Table.Th>
                {OPERATIONS.map((op) => {
                  const permission = `${row.resource}:${op}`;
                  const granted = row.granted[op];
                  if (!onChange) {
                    return (
                      <Table.Td key={op} ta="center">
                        {granted ? (
                          <>
                            <IconCheck size={16} aria-hidden style={{ verticalAlign: 'middle' }} />
                            <VisuallyHidden>{permission} granted</VisuallyHidden>
                          </>
                        ) : (
                          <>
                            <Text span c="dimmed" aria-hidden>
                              ·
                            </Text>
                            <VisuallyHidden>{permission} not granted</VisuallyHidden>
                          </>
                        )}
                      </Table.Td>
                    );
                  }
                  const allowed = canGrant(permission);
                  return (
                    <Table.Td key={op}>
                      <Checkbox
                        aria-label={permission}
                        checked={granted}
                        disabled={!allowed}
                        aria-description={allowed ? undefined : `You do not hold ${permission}, so you cannot grant it`}
                        title={allowed ? undefined : `You do not hold ${permission}`}
                        onChange={(event) => onChange(toggle(value, permission, event.currentTarget.checked))}
                        styles={{ body: { justifyContent: 'center' } }}
                      />
                    </Table.Td>
                  );
                })}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {error && (
        <Text c="red" size="sm" mt={4} role="alert">
          {error}
        </Text>
      )}
    </div>
  );
}

/**
 * What a grid edited by the signed-in caller offers: its rows (every resource of the caller's permissions, all of
 * them for the admin, plus `lists`) and which cells it may tick. In the enterprise edition a caller grants only what
 * it holds; the open-source edition enforces no permissions, so nothing is held back there.
 */
export function useGrantable(...lists: ReadonlyArray<readonly string[] | undefined>) {
  const caller = useCaller();
  const resources = gridResources(caller.permissions, ...lists);
  const canGrant = (permission: string) =>
    caller.isAdmin || caller.edition !== 'enterprise' || caller.permissions.has(permission);
  return { resources, canGrant, clamped: !caller.isAdmin && caller.edition === 'enterprise' };
}
