import { Badge, Button, Group, Select, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { api, call } from '../../api/client';
import { DateTime } from '../../shared/format/date-time';
import { ErrorAlert } from '../../shared/ui/error-alert';
import { parseSnapshot, snapshotFields, versionDiff, type DiffRow } from './profile-helpers';

const CHANGE_COLOR: Record<DiffRow['change'], string> = { added: 'teal.9', removed: 'red.9', changed: 'blue.9' };

/**
 * A template's versions (every change stores one: 1 is the create): any one as stored, and the difference between any
 * two, field by field, from the snapshots the API keeps.
 */
export function ProfileVersions({ profileId, version }: { profileId: number; version: number }) {
  const versions = useQuery({
    queryKey: ['access-profiles', profileId, 'versions', version],
    queryFn: ({ signal }) =>
      call(
        api.GET('/api/governance/access-profiles/{profile_id}/versions', {
          params: { path: { profile_id: profileId } },
          signal,
        }),
      ),
  });
  const list = useMemo(() => versions.data?.versions ?? [], [versions.data]);
  const latest = list.at(-1)?.version;
  const [picked, setPicked] = useState<{ from?: number; to?: number }>({});
  const [shown, setShown] = useState<number>();
  const to = picked.to ?? latest;
  const from = picked.from ?? (to !== undefined && to > 1 ? to - 1 : to);
  const rows = useMemo(() => {
    const a = list.find((v) => v.version === from);
    const b = list.find((v) => v.version === to);
    return a && b ? versionDiff(parseSnapshot(a.snapshot), parseSnapshot(b.snapshot)) : [];
  }, [list, from, to]);
  const options = list.map((v) => ({ value: String(v.version), label: `Version ${v.version}` }));

  return (
    <Stack gap="sm">
      <Title order={3} size="h5" id="versions-title">
        Versions
      </Title>
      {versions.isError && <ErrorAlert error={versions.error} />}
      <Table.ScrollContainer minWidth={520}>
        <Table verticalSpacing={4} aria-label="Versions">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Version</Table.Th>
              <Table.Th>Name</Table.Th>
              <Table.Th>Changed by</Table.Th>
              <Table.Th>When</Table.Th>
              <Table.Th>
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {[...list].reverse().map((v) => (
              <Table.Tr key={v.version}>
                <Table.Td>{v.version}</Table.Td>
                <Table.Td>{v.name}</Table.Td>
                <Table.Td>{v.changed_by ?? '—'}</Table.Td>
                <Table.Td>
                  <DateTime value={v.created_at} />
                </Table.Td>
                <Table.Td>
                  <Button
                    size="compact-sm"
                    variant={shown === v.version ? 'light' : 'subtle'}
                    aria-pressed={shown === v.version}
                    aria-label={`Show version ${v.version}`}
                    onClick={() => setShown(shown === v.version ? undefined : v.version)}
                  >
                    Show
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {shown !== undefined && <StoredVersion key={shown} profileId={profileId} version={shown} />}
      {list.length > 1 && (
        <Stack gap="xs">
          <Group gap="sm" align="flex-end">
            <Select
              label="Compare version"
              data={options}
              value={from !== undefined ? String(from) : null}
              onChange={(value) => value && setPicked({ from: Number(value), to })}
              allowDeselect={false}
              w={160}
            />
            <Select
              label="with version"
              data={options}
              value={to !== undefined ? String(to) : null}
              onChange={(value) => value && setPicked({ from, to: Number(value) })}
              allowDeselect={false}
              w={160}
            />
          </Group>
          {rows.length === 0 ? (
            <Text size="sm" c="dimmed">
              Version {from} and version {to} are the same.
            </Text>
          ) : (
            <Table.ScrollContainer minWidth={520}>
              <Table verticalSpacing={4} aria-label={`Changes from version ${from} to version ${to}`}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Field</Table.Th>
                    <Table.Th>Change</Table.Th>
                    <Table.Th>Version {from}</Table.Th>
                    <Table.Th>Version {to}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {rows.map((row) => (
                    <Table.Tr key={row.field}>
                      <Table.Td ff="monospace" fz="sm">
                        {row.field}
                      </Table.Td>
                      <Table.Td>
                        <Badge variant="filled" color={CHANGE_COLOR[row.change]} tt="none">
                          {row.change}
                        </Badge>
                      </Table.Td>
                      <Table.Td style={{ wordBreak: 'break-word' }}>{row.before}</Table.Td>
                      <Table.Td style={{ wordBreak: 'break-word' }}>{row.after}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </Stack>
      )}
    </Stack>
  );
}

/** One version as the API stores it (`GET …/versions/{version}`): who saved it, when, and every field of it. */
function StoredVersion({ profileId, version }: { profileId: number; version: number }) {
  const stored = useQuery({
    queryKey: ['access-profiles', profileId, 'versions', 'stored', version],
    queryFn: ({ signal }) =>
      call(
        api.GET('/api/governance/access-profiles/{profile_id}/versions/{version}', {
          params: { path: { profile_id: profileId, version } },
          signal,
        }),
      ),
    staleTime: Infinity,
  });
  const v = stored.data?.version;
  const fields = useMemo(() => (v ? snapshotFields(parseSnapshot(v.snapshot)) : []), [v]);
  return (
    <Stack gap="xs" component="section" aria-labelledby="stored-version-title">
      <Title order={4} size="h6" id="stored-version-title">
        Version {version} as stored
      </Title>
      {stored.isError && <ErrorAlert error={stored.error} />}
      {v && (
        <Text size="sm" c="dimmed">
          Saved by {v.changed_by ?? 'an unknown caller'} on <DateTime value={v.created_at} />
        </Text>
      )}
      {v && (
        <Table.ScrollContainer minWidth={420}>
          <Table verticalSpacing={4} aria-label={`Fields of version ${version}`}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Field</Table.Th>
                <Table.Th>Value</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {fields.map((row) => (
                <Table.Tr key={row.field}>
                  <Table.Td ff="monospace" fz="sm">
                    {row.field}
                  </Table.Td>
                  <Table.Td style={{ wordBreak: 'break-word' }}>{row.value}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
