import { Center, Loader } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useSyncExternalStore, type ReactNode } from 'react';
import { api, call, onSessionEnded } from '../../api/client';
import { CallerProvider } from '../../shared/auth/permissions';
import { ErrorAlert } from '../../shared/ui/error-alert';
import { CALLER_KEY, restartSession, sessionNotice, useAuthStatus } from './session';
import { SignInPage } from './sign-in-page';
import { UnlockPage } from './unlock-page';

function FullPage({ children }: { children: ReactNode }) {
  return (
    <Center mih="100vh" p="md">
      {children}
    </Center>
  );
}

/**
 * Renders its children only for a caller with a valid session, with the caller's permissions in context. Otherwise
 * the sign-in page (dashboard auth) or the unlock page (setup token) stands at the same URL; when any API call says
 * the session ended (401), the same happens, with a message.
 */
export function SessionGate({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const status = useAuthStatus();
  const notice = useSyncExternalStore(
    (listener) => sessionNotice.subscribe(listener),
    () => sessionNotice.get(),
  );

  useEffect(
    () =>
      onSessionEnded((message) => {
        sessionNotice.set(message);
        void queryClient.invalidateQueries({ queryKey: ['session', 'status'] });
      }),
    [queryClient],
  );

  if (status.isPending) {
    return (
      <FullPage>
        <Loader aria-label="Loading" />
      </FullPage>
    );
  }
  if (status.isError) {
    return (
      <FullPage>
        <ErrorAlert error={status.error} />
      </FullPage>
    );
  }
  const signedIn = async () => {
    sessionNotice.set(undefined);
    await restartSession(queryClient);
  };
  if (!status.data.has_valid_token) {
    return status.data.is_auth_enabled ? (
      <SignInPage notice={notice} onSignedIn={signedIn} />
    ) : (
      <UnlockPage status={status.data} notice={notice} onUnlocked={signedIn} />
    );
  }
  return <CallerGate>{children}</CallerGate>;
}

/** The caller's permissions and the edition, read once per session. */
function CallerGate({ children }: { children: ReactNode }) {
  const caller = useQuery({
    queryKey: CALLER_KEY,
    queryFn: async ({ signal }) => {
      const [permissions, version] = await Promise.all([
        call(api.GET('/api/governance/users/me/permissions', { signal })),
        call(api.GET('/api/version', { signal })),
      ]);
      return {
        isAdmin: permissions.is_admin,
        permissions: new Set(permissions.permissions),
        edition: version.edition,
      };
    },
    staleTime: Infinity,
  });
  if (caller.isPending) {
    return (
      <FullPage>
        <Loader aria-label="Loading" />
      </FullPage>
    );
  }
  if (caller.isError) {
    return (
      <FullPage>
        <ErrorAlert error={caller.error} />
      </FullPage>
    );
  }
  return <CallerProvider caller={caller.data}>{children}</CallerProvider>;
}
