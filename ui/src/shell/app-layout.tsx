import { AppShell, Badge, Burger, Button, Center, Group, Loader, NavLink, ScrollArea, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconLogout } from '../shared/ui/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Link, Outlet, useRouterState } from '@tanstack/react-router';
import { Suspense } from 'react';
import { api, call } from '../api/client';
import { describeError } from '../api/errors';
import { NAVIGATION } from '../app/navigation';
import { useCaller } from '../shared/auth/permissions';
import { restartSession, sessionNotice } from './session/session';

/** The frame of every screen: the header, the sidebar (only what the caller may view) and the screen. */
export function AppLayout() {
  const [opened, { toggle, close }] = useDisclosure();
  const caller = useCaller();
  const queryClient = useQueryClient();
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const visible = NAVIGATION.filter(
    (item) =>
      (!item.edition || item.edition === caller.edition) && (caller.isAdmin || caller.permissions.has(item.permission)),
  );

  const signOut = async () => {
    try {
      await call(api.POST('/api/session/logout'));
    } catch (error) {
      notifications.show({ color: 'red', ...describeError(error) });
      return;
    }
    sessionNotice.set('Signed out.');
    await restartSession(queryClient, true);
  };

  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: 240, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding="md"
    >
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label="Toggle navigation" />
            <Text fw={700}>AI Gateway</Text>
            <Badge variant="light" color={caller.edition === 'enterprise' ? 'violet' : 'gray'} visibleFrom="xs">
              {caller.edition}
            </Badge>
          </Group>
          <Button variant="subtle" size="sm" leftSection={<IconLogout size={16} />} onClick={() => void signOut()}>
            Sign out
          </Button>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" aria-label="Main">
        <AppShell.Section grow component={ScrollArea}>
          {visible.map((item) => (
            <NavLink
              key={item.to}
              component={Link}
              to={item.to}
              label={item.label}
              leftSection={<item.icon size={18} aria-hidden />}
              active={item.to === '/' ? pathname === '/' : pathname.startsWith(item.to)}
              variant="filled"
              onClick={close}
            />
          ))}
        </AppShell.Section>
      </AppShell.Navbar>
      <AppShell.Main>
        <Suspense
          fallback={
            <Center py="xl">
              <Loader aria-label="Loading" />
            </Center>
          }
        >
          <Outlet />
        </Suspense>
      </AppShell.Main>
    </AppShell>
  );
}
