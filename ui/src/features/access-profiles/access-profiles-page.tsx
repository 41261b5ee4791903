import { Badge, Button, Group, Paper, Stack, Table, Tabs, Text, Title, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { api, call } from '../../api/client';
import { describeError } from '../../api/errors';
import { GatedButton } from '../../shared/auth/permissions';
import { DateTime } from '../../shared/format/date-time';
import { useConfirm } from '../../shared/ui/confirm';
import { EnterpriseOnly } from '../../shared/ui/enterprise-only';
import { ErrorAlert } from '../../shared/ui/error-alert';
import { IconCopy, IconPencil, IconPlus, IconTrash } from '../../shared/ui/icons';
import { Page } from '../../shared/ui/page';
import { valueText, type ProfileView } from './profile-helpers';
import { RoleDefaults, UserCopies } from './profile-holders';
import { ProfileVersions } from './profile-versions';
import { PropagationPanel } from './propagation-panel';
import { accessProfilesRoute, type AccessProfilesSearch } from './route';
import { CloneTemplateModal } from './template-clone';
import { TemplateFormModal } from './template-form';

const TITLE = 'Access profiles';
const DESCRIPTION =
  'Templates of provider access, budgets and limits; each user holds a copy with managed keys, updated by propagation.';
/** Templates listed at once (by id); the API pages them. */
const PAGE_SIZE = 100;
const ACTIVE_COLOR = '#1e6b30';

/**
 * Access profiles (enterprise): the templates (create, edit, clone, activate, delete), and the open one's propagation (dry
 * run, then a run followed live), versions with a field-by-field diff, role defaults and users' copies.
 */
export function AccessProfilesPage() {
  return (
    <EnterpriseOnly title={TITLE} description={DESCRIPTION}>
      <AccessProfilesScreen />
    </EnterpriseOnly>
  );
}

function AccessProfilesScreen() {
  const search = accessProfilesRoute.useSearch();
  const navigate = useNavigate({ from: '/access-profiles' });
  const setSearch = (next: AccessProfilesSearch) => void navigate({ search: next });
  const queryClient = useQueryClient();
  const confirm = useConfirm();
  const [dialog, setDialog] = useState<{ editing?: ProfileView }>();
  const [cloning, setCloning] = useState<ProfileView>();
  const list = useQuery({
    queryKey: ['access-profiles', 'list'],
    queryFn: ({ signal }) =>
      call(api.GET('/api/governance/access-profiles', { params: { query: { limit: PAGE_SIZE } }, signal })),
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['access-profiles'] });
  const act = async (run: () => Promise<unknown>, done: string) => {
    try {
      await run();
      notifications.show({ color: 'green', message: done });
    } catch (error) {
      notifications.show({ color: 'red', ...describeError(error) });
    }
    await refresh();
  };
  const remove = async (profile: ProfileView) => {
    const sure = await confirm({
      title: 'Delete template',
      message: `Delete the template ${profile.name} with its ${profile.version} version(s)? A template some user still holds a copy of cannot be deleted.`,
      confirmLabel: `Delete ${profile.name}`,
      danger: true,
    });
    if (!sure) return;
    await act(
      () =>
        call(
          api.DELETE('/api/governance/access-profiles/{profile_id}', { params: { path: { profile_id: profile.id } } }),
        ),
      `Deleted ${profile.name}`,
    );
    if (search.profile === profile.id) setSearch({});
  };
  const toggle = (profile: ProfileView) =>
    act(
      () =>
        call(
          profile.is_active
            ? api.PUT('/api/governance/access-profiles/{profile_id}/deactivate', {
                params: { path: { profile_id: profile.id } },
              })
            : api.PUT('/api/governance/access-profiles/{profile_id}/activate', {
                params: { path: { profile_id: profile.id } },
              }),
        ),
      `${profile.name} ${profile.is_active ? 'deactivated' : 'activated'}`,
    );
  const profiles = list.data?.access_profiles ?? [];
  const open = profiles.find((p) => p.id === search.profile);

  return (
    <Page
      title={TITLE}
      description={DESCRIPTION}
      actions={
        <GatedButton
          permission="AccessProfiles:Create"
          leftSection={<IconPlus size={16} aria-hidden />}
          onClick={() => setDialog({})}
        >
          Add template
        </GatedButton>
      }
    >
      {list.isError && <ErrorAlert error={list.error} />}
      <Paper withBorder p="md" radius="md" component="section" aria-labelledby="templates">
        <Stack gap="sm">
          <Title order={2} size="h4" id="templates">
            Templates
          </Title>
          {list.data && profiles.length === 0 ? (
            <Text c="dimmed" size="sm">
              No template yet.
            </Text>
          ) : (
            <Table.ScrollContainer minWidth={820}>
              <Table verticalSpacing="xs" aria-label="Access profile templates" highlightOnHover>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Template</Table.Th>
                    <Table.Th>State</Table.Th>
                    <Table.Th>Version</Table.Th>
                    <Table.Th>Providers</Table.Th>
                    <Table.Th>Tags</Table.Th>
                    <Table.Th>Updated</Table.Th>
                    <Table.Th>
                      <VisuallyHidden>Actions</VisuallyHidden>
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {profiles.map((profile) => (
                    <Table.Tr key={profile.id}>
                      <Table.Td>
                        <Button
                          variant={profile.id === search.profile ? 'light' : 'subtle'}
                          size="compact-sm"
                          fw={600}
                          aria-current={profile.id === search.profile ? 'true' : undefined}
                          aria-label={`Open template ${profile.name}`}
                          onClick={() => setSearch({ profile: profile.id })}
                        >
                          {profile.name}
                        </Button>
                      </Table.Td>
                      <Table.Td miw={96}>
                        <Badge
                          variant={profile.is_active ? 'filled' : 'outline'}
                          color={profile.is_active ? ACTIVE_COLOR : 'gray'}
                          tt="none"
                          style={{ overflow: 'visible' }}
                        >
                          {profile.is_active ? 'active' : 'inactive'}
                        </Badge>
                      </Table.Td>
                      <Table.Td>{profile.version}</Table.Td>
                      <Table.Td>{valueText(profile.provider_configs.map((c) => c.provider_name))}</Table.Td>
                      <Table.Td>{profile.tags.join(', ') || '—'}</Table.Td>
                      <Table.Td>
                        <DateTime value={profile.updated_at} />
                      </Table.Td>
                      <Table.Td>
                        <Group gap={4} wrap="nowrap" justify="flex-end">
                          <GatedButton
                            permission="AccessProfiles:Update"
                            size="compact-sm"
                            variant="subtle"
                            leftSection={<IconPencil size={14} aria-hidden />}
                            aria-label={`Edit template ${profile.name}`}
                            onClick={() => setDialog({ editing: profile })}
                          >
                            Edit
                          </GatedButton>
                          <GatedButton
                            permission="AccessProfiles:Create"
                            size="compact-sm"
                            variant="subtle"
                            leftSection={<IconCopy size={14} aria-hidden />}
                            aria-label={`Clone template ${profile.name}`}
                            onClick={() => setCloning(profile)}
                          >
                            Clone
                          </GatedButton>
                          <GatedButton
                            permission="AccessProfiles:Update"
                            size="compact-sm"
                            variant="subtle"
                            aria-label={`${profile.is_active ? 'Deactivate' : 'Activate'} template ${profile.name}`}
                            onClick={() => void toggle(profile)}
                          >
                            {profile.is_active ? 'Deactivate' : 'Activate'}
                          </GatedButton>
                          <GatedButton
                            permission="AccessProfiles:Delete"
                            size="compact-sm"
                            variant="subtle"
                            color="red"
                            leftSection={<IconTrash size={14} aria-hidden />}
                            aria-label={`Delete template ${profile.name}`}
                            onClick={() => void remove(profile)}
                          >
                            Delete
                          </GatedButton>
                        </Group>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
          {list.data && list.data.total_count > profiles.length && (
            <Text size="xs" c="dimmed">
              The first {profiles.length} of {list.data.total_count} templates, by id.
            </Text>
          )}
        </Stack>
      </Paper>
      {open && (
        <TemplateDetail
          key={open.id}
          profile={open}
          jobId={search.job}
          onJob={(job) => void navigate({ search: { profile: open.id, ...(job ? { job } : {}) }, replace: true })}
        />
      )}
      {search.profile !== undefined && list.data && !open && (
        <Text c="dimmed" size="sm">
          No template {search.profile} among the first {profiles.length}.
        </Text>
      )}
      <CloneTemplateModal
        source={cloning}
        onClose={() => setCloning(undefined)}
        onCloned={(cloned) => {
          notifications.show({ color: 'green', message: `Template ${cloning?.name} cloned as ${cloned.name}` });
          setCloning(undefined);
          void refresh();
          setSearch({ profile: cloned.id });
        }}
      />
      <TemplateFormModal
        opened={dialog !== undefined}
        editing={dialog?.editing}
        onClose={() => setDialog(undefined)}
        onSaved={(saved) => {
          setDialog(undefined);
          notifications.show({ color: 'green', message: `Template ${saved.name} saved (version ${saved.version})` });
          void refresh();
          if (!dialog?.editing) setSearch({ profile: saved.id });
        }}
      />
    </Page>
  );
}

function TemplateDetail({
  profile,
  jobId,
  onJob,
}: {
  profile: ProfileView;
  jobId: string | undefined;
  onJob: (jobId: string | undefined) => void;
}) {
  const detail = useQuery({
    queryKey: ['access-profiles', profile.id, 'detail'],
    queryFn: ({ signal }) =>
      call(
        api.GET('/api/governance/access-profiles/{profile_id}', {
          params: { path: { profile_id: profile.id } },
          signal,
        }),
      ),
  });
  const rate = profile.rate_limit;
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="template-detail">
      <Stack gap="sm">
        <Title order={2} size="h4" id="template-detail">
          Template {profile.name}
        </Title>
        {detail.isError && <ErrorAlert error={detail.error} />}
        <Group gap="xl" wrap="wrap" style={{ rowGap: 4 }}>
          <Text size="sm">Version {profile.version}</Text>
          <Text size="sm">
            Users holding a copy: <b>{detail.data?.user_count ?? '…'}</b>
          </Text>
          <Text size="sm">
            Budgets: {profile.budgets.map((b) => `$${b.max_limit} per ${b.reset_duration}`).join(', ') || 'none'}
          </Text>
          <Text size="sm">
            Rate limit:{' '}
            {rate
              ? [
                  rate.request_max_limit != null &&
                    `${rate.request_max_limit} requests / ${rate.request_reset_duration}`,
                  rate.token_max_limit != null && `${rate.token_max_limit} tokens / ${rate.token_reset_duration}`,
                ]
                  .filter(Boolean)
                  .join(', ')
              : 'none'}
          </Text>
        </Group>
        {profile.description && (
          <Text size="sm" c="dimmed">
            {profile.description}
          </Text>
        )}
        <Tabs defaultValue="propagation" keepMounted>
          <Tabs.List>
            <Tabs.Tab value="propagation">Propagation</Tabs.Tab>
            <Tabs.Tab value="versions">Versions</Tabs.Tab>
            <Tabs.Tab value="roles">Role defaults</Tabs.Tab>
            <Tabs.Tab value="copies">Users&apos; copies</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="propagation" pt="sm">
            <PropagationPanel profile={profile} jobId={jobId} onJob={onJob} />
          </Tabs.Panel>
          <Tabs.Panel value="versions" pt="sm">
            <ProfileVersions profileId={profile.id} version={profile.version} />
          </Tabs.Panel>
          <Tabs.Panel value="roles" pt="sm">
            <RoleDefaults profile={profile} detail={detail.data} />
          </Tabs.Panel>
          <Tabs.Panel value="copies" pt="sm">
            <UserCopies profile={profile} />
          </Tabs.Panel>
        </Tabs>
      </Stack>
    </Paper>
  );
}
