import { Alert, Button, Checkbox, Group, MultiSelect, Progress, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { api, call } from '../../api/client';
import { GatedButton } from '../../shared/auth/permissions';
import { useConfirm } from '../../shared/ui/confirm';
import { ErrorAlert } from '../../shared/ui/error-alert';
import { IconInfoCircle } from '../../shared/ui/icons';
import {
  failuresOf,
  FIELD_LABELS,
  flatten,
  progressOf,
  progressOfResult,
  PROPAGATION_FIELDS,
  resultSummary,
  valueText,
  type ProfileView,
  type PropagationField,
  type PropagationResult,
} from './profile-helpers';

/** How often a running propagation's job is read: the job writes its progress every 250 ms. */
const POLL_MS = 250;
/** Users listed by name (in name order) in a preview or a result; the rest are counted. */
const USERS_SHOWN = 50;

/**
 * Propagation: the chosen template fields copied onto the copies of every holder. A dry run first says who would
 * change and what each chosen field becomes; a run follows its tracked job (`processed` of `total`, read every 0.25 s
 * while it runs; the gateway's /ws carries no job progress) and ends with the result per user. Running it again on
 * a finished propagation changes nothing (each copy already matches), which a second dry run shows.
 */
export function PropagationPanel({
  profile,
  jobId,
  onJob,
}: {
  profile: ProfileView;
  /** The tracked job in the URL (`job=`), followed after a reload too. */
  jobId: string | undefined;
  onJob: (jobId: string | undefined) => void;
}) {
  const queryClient = useQueryClient();
  const confirm = useConfirm();
  const [fields, setFields] = useState<PropagationField[]>(['provider_configs', 'budgets', 'rate_limit']);
  const [resetUsage, setResetUsage] = useState(false);
  /** Only these users (none: every holder of a copy). */
  const [only, setOnly] = useState<string[]>([]);
  const [preview, setPreview] = useState<PropagationResult>();
  const [answered, setAnswered] = useState<PropagationResult>();
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState<'preview' | 'run'>();
  const users = useQuery({
    queryKey: ['users'],
    queryFn: ({ signal }) => call(api.GET('/api/governance/users', { signal })),
  });
  const nameOf = useMemo(() => {
    const names = new Map((users.data?.users ?? []).map((u) => [u.id, u.name]));
    return (id: string) => names.get(id) ?? id;
  }, [users.data]);
  const job = useQuery({
    queryKey: ['access-profiles', 'propagations', jobId],
    enabled: jobId !== undefined,
    queryFn: ({ signal }) =>
      call(
        api.GET('/api/governance/access-profiles/propagations/{job_id}', {
          params: { path: { job_id: jobId! } },
          signal,
        }),
      ),
    refetchInterval: (query) => (query.state.data?.status === 'running' || !query.state.data ? POLL_MS : false),
  });

  const body = (dryRun: boolean) => ({
    fields,
    reset_usage: resetUsage,
    dry_run: dryRun,
    ...(only.length ? { user_ids: only } : {}),
  });
  const who = only.length
    ? `the ${only.length} chosen ${only.length === 1 ? 'user' : 'users'}`
    : 'every user holding it';

  const runPreview = async () => {
    setBusy('preview');
    setError(undefined);
    try {
      const answer = await call(
        api.POST('/api/governance/access-profiles/{profile_id}/propagate', {
          params: { path: { profile_id: profile.id } },
          body: body(true),
        }),
      );
      if ('affected_users' in answer) setPreview(answer);
    } catch (refused) {
      setError(refused);
    } finally {
      setBusy(undefined);
    }
  };

  const run = async () => {
    const sure = await confirm({
      title: 'Propagate template',
      message: `Copy ${fields.map((f) => FIELD_LABELS[f]).join(', ')} of ${profile.name} onto the copy of ${who}, and rewrite their managed keys?${resetUsage ? ' Their usage is reset to zero.' : ''}`,
      confirmLabel: `Propagate ${profile.name}`,
    });
    if (!sure) return;
    setBusy('run');
    setError(undefined);
    setPreview(undefined);
    setAnswered(undefined);
    onJob(undefined);
    try {
      const answer = await call(
        api.POST('/api/governance/access-profiles/{profile_id}/propagate', {
          params: { path: { profile_id: profile.id } },
          body: body(false),
        }),
      );
      // 202: the job is still running, follow it; 200: it finished within the gateway's wait.
      if ('job_id' in answer) onJob(answer.job_id);
      else setAnswered(answer);
    } catch (refused) {
      setError(refused);
    } finally {
      setBusy(undefined);
      await queryClient.invalidateQueries({ queryKey: ['access-profiles', profile.id] });
    }
  };

  const status = jobId !== undefined ? job.data : undefined;
  const progress = status ? progressOf(status) : answered ? progressOfResult(answered) : undefined;
  const result = status?.result ?? answered;
  const running = busy === 'run' || status?.status === 'running';

  return (
    <Stack gap="sm">
      <Title order={3} size="h5">
        Propagation
      </Title>
      <Text size="sm" c="dimmed">
        Copies the chosen fields of the template onto the copy of every user holding it (the other fields of each copy
        are kept) and rewrites their managed keys.
      </Text>
      <Checkbox.Group
        label="Fields to copy"
        value={fields}
        onChange={(value) => {
          setFields(value);
          setPreview(undefined);
        }}
      >
        <Group gap="md" mt={4}>
          {PROPAGATION_FIELDS.map((field) => (
            <Checkbox key={field} value={field} label={FIELD_LABELS[field]} />
          ))}
        </Group>
      </Checkbox.Group>
      <Checkbox
        label="Reset the budget and rate-limit usage of the rewritten keys"
        checked={resetUsage}
        onChange={(e) => {
          setResetUsage(e.currentTarget.checked);
          setPreview(undefined);
        }}
      />
      <MultiSelect
        label="Only these users"
        description="Empty: every user holding a copy. A chosen user without a copy is skipped."
        placeholder={only.length ? undefined : 'Every holder'}
        data={(users.data?.users ?? []).map((u) => ({ value: u.id, label: u.name }))}
        value={only}
        onChange={(value) => {
          setOnly(value);
          setPreview(undefined);
        }}
        searchable
        clearable
        limit={50}
        maxValues={1000}
        maw={640}
      />
      <Group gap="sm">
        <Button
          variant="default"
          disabled={fields.length === 0 || running}
          loading={busy === 'preview'}
          onClick={() => void runPreview()}
        >
          Preview (dry run)
        </Button>
        <GatedButton
          permission="AccessProfiles:Create"
          disabled={fields.length === 0 || running}
          loading={busy === 'run'}
          onClick={() => void run()}
        >
          Propagate
        </GatedButton>
      </Group>
      {fields.length === 0 && (
        <Text size="sm" c="red.8">
          Choose at least one field.
        </Text>
      )}
      {error !== undefined && <ErrorAlert error={error} onClose={() => setError(undefined)} />}
      {job.isError && <ErrorAlert error={job.error} />}

      {preview && <PreviewResult profile={profile} result={preview} nameOf={nameOf} />}

      {(progress || busy === 'run') && (
        <Stack gap={6} component="section" aria-label="Propagation run">
          <Group justify="space-between">
            <Text size="sm" fw={500}>
              {running ? 'Propagating…' : status?.status === 'failed' ? 'Propagation failed' : 'Propagation finished'}
            </Text>
            <Text size="sm" fw={600}>
              {progress?.text ?? '…'}
            </Text>
          </Group>
          {busy === 'run' && !progress && (
            <Text size="xs" c="dimmed">
              The gateway answers once the job ends or its wait (access_profiles.propagation_wait, 30 s by default) is
              over; the bar follows the job from then on.
            </Text>
          )}
          <Progress value={progress?.percent ?? 0} size="lg" animated={running} aria-label="Propagation progress" />
          <Group gap="lg">
            <Text size="sm">Done: {progress?.done ?? 0}</Text>
            <Text size="sm">
              Failed: {progress?.failed !== undefined ? progress.failed : running ? 'counted at the end' : '—'}
            </Text>
            <Text size="sm">Total: {progress?.total ?? '…'}</Text>
          </Group>
          {running && (
            <Text size="xs" c="dimmed">
              A propagation cannot be cancelled (the API has no cancel): each user&apos;s change is its own transaction,
              and the job runs to its end. Leaving the page does not stop it; the link follows it.
            </Text>
          )}
          {status?.status === 'failed' && (
            <Alert color="red" title="The job gave up">
              {status.error ?? 'No reason given'}
            </Alert>
          )}
          {result && <RunResult result={result} nameOf={nameOf} />}
        </Stack>
      )}
    </Stack>
  );
}

function UserList({ ids, nameOf }: { ids: string[]; nameOf: (id: string) => string }) {
  if (ids.length === 0) return null;
  const names = ids.map(nameOf).sort((a, b) => a.localeCompare(b, undefined, { numeric: true }));
  const shown = names.slice(0, USERS_SHOWN);
  return (
    <Text size="sm">
      {shown.join(', ')}
      {ids.length > shown.length && ` and ${ids.length - shown.length} more`}
    </Text>
  );
}

/** A dry run: who would change, and what each chosen field becomes on their copy, field by field. */
function PreviewResult({
  profile,
  result,
  nameOf,
}: {
  profile: ProfileView;
  result: PropagationResult;
  nameOf: (id: string) => string;
}) {
  const changes = result.affected_users > 0 || result.failed_users > 0;
  const rows: Array<[string, unknown]> = result.fields.flatMap((field) => {
    const leaves = [...flatten((profile as unknown as Record<string, unknown>)[field], field)];
    return leaves.length ? leaves : [[field, undefined] as [string, unknown]];
  });
  return (
    <Alert
      color={changes ? 'blue' : 'green'}
      icon={<IconInfoCircle size={18} />}
      title="Dry run: nothing was written"
      aria-label="Dry run"
    >
      <Stack gap="xs">
        <Text size="sm" fw={500}>
          {resultSummary(result)}
        </Text>
        {result.affected_users > 0 && (
          <>
            <Text size="sm">Users whose copy would change:</Text>
            <UserList ids={result.user_ids} nameOf={nameOf} />
            <Text size="sm">Each of them gets, field by field:</Text>
            <Table.ScrollContainer minWidth={420}>
              <Table verticalSpacing={2} aria-label="Fields copied">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Field</Table.Th>
                    <Table.Th>Template value</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {rows.map(([path, value]) => (
                    <Table.Tr key={path}>
                      <Table.Td ff="monospace" fz="sm">
                        {path}
                      </Table.Td>
                      <Table.Td style={{ wordBreak: 'break-word' }}>{valueText(value)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
            <Text size="xs" c="dimmed">
              The gateway does not show a copy&apos;s own values, so the preview gives the value each copy takes, not
              what it had.
            </Text>
          </>
        )}
      </Stack>
    </Alert>
  );
}

/** A finished run: counts, the users changed, and each failure with its error. */
function RunResult({ result, nameOf }: { result: PropagationResult; nameOf: (id: string) => string }) {
  const failures = failuresOf(result);
  return (
    <Stack gap="xs">
      <Text size="sm" fw={500} role="status">
        {resultSummary(result)}
      </Text>
      {result.affected_users > 0 && (
        <>
          <Text size="sm">Users changed:</Text>
          <UserList ids={result.user_ids} nameOf={nameOf} />
        </>
      )}
      {result.failed_users > 0 && (
        <Text size="sm" c="red.8">
          {result.failed_users} {result.failed_users === 1 ? 'user' : 'users'} could not take the fields (nothing of
          theirs changed); the API counts them without naming them.
        </Text>
      )}
      {failures.length > 0 && (
        <Table.ScrollContainer minWidth={420}>
          <Table verticalSpacing={2} aria-label="Key sync failures">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>User</Table.Th>
                <Table.Th>Error</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {failures.map((failure, index) => (
                <Table.Tr key={index}>
                  <Table.Td>{nameOf(failure.user)}</Table.Td>
                  <Table.Td style={{ wordBreak: 'break-word' }}>{failure.error}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
