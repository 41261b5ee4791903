import { Button, Code, PasswordInput, Stack } from '@mantine/core';
import { api, call } from '../../api/client';
import type { Schema } from '../../api/schemas';
import { useApiForm } from '../../shared/forms/use-api-form';
import { ErrorAlert } from '../../shared/ui/error-alert';
import { AuthCard } from './auth-card';

/** Where this gateway's setup token is, from `setup_token_source` (never the token, never a server path). */
function whereTheTokenIs(source: Schema<'AuthStatus'>['setup_token_source']) {
  switch (source) {
    case 'file':
      return (
        <>
          The gateway&apos;s first start generated a setup token into the file <Code>setup-token</Code> in its app
          directory (<Code>./data/setup-token</Code> with the default <Code>--app-dir</Code>); the start-up log line
          names its full path. Paste it here.
        </>
      );
    case 'config':
      return (
        <>
          The setup token is the value of <Code>setup_token</Code> in the gateway&apos;s config file or of its{' '}
          <Code>GATEWAY_SETUP_TOKEN</Code> environment variable.
        </>
      );
    case 'none':
    case null:
      return (
        <>
          This gateway has no setup token: set <Code>GATEWAY_SETUP_TOKEN</Code> and restart it, or enable dashboard auth
          (<Code>GATEWAY_AUTH_ENABLED=true</Code> with an admin username and password).
        </>
      );
  }
}

/**
 * The setup lock (no dashboard auth): the setup token is exchanged for an HttpOnly session cookie through
 * `POST /api/session/setup`. The token lives only in this form's state; the browser keeps nothing but the cookie.
 */
export function UnlockPage({
  status,
  notice,
  onUnlocked,
}: {
  status: Schema<'AuthStatus'>;
  notice?: string;
  onUnlocked: () => Promise<void>;
}) {
  const { form, formError, onSubmit } = useApiForm({
    initialValues: { token: '' },
    // A header, not a body: only its presence is checked here; the gateway judges the token.
    constraints: { required: ['token'], properties: { token: { type: 'string' } } },
  });
  const submit = onSubmit(async ({ token }) => {
    await call(api.POST('/api/session/setup', { headers: { 'X-Gateway-Setup-Token': token.trim() } }));
    form.setValues({ token: '' });
    await onUnlocked();
  });
  return (
    <AuthCard title="Unlock the gateway" notice={notice} intro={whereTheTokenIs(status.setup_token_source)}>
      <form onSubmit={submit} noValidate autoComplete="off">
        <Stack gap="sm">
          <PasswordInput
            label="Setup token"
            description="Exchanged for a session of 12 hours; not stored by this page."
            autoComplete="off"
            data-1p-ignore
            required
            {...form.getInputProps('token')}
          />
          {formError !== undefined && <ErrorAlert error={formError} />}
          <Button type="submit" loading={form.submitting}>
            Unlock
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}
