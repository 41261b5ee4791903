import { Button, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useInterval } from '@mantine/hooks';
import { useState } from 'react';
import { api, call } from '../../api/client';
import { LoginRequest } from '../../api/constraints.gen';
import { ApiError } from '../../api/errors';
import { formatDateTime } from '../../shared/format/format';
import { useApiForm } from '../../shared/forms/use-api-form';
import { ErrorAlert } from '../../shared/ui/error-alert';
import { AuthCard } from './auth-card';

/**
 * Dashboard auth: the admin's username, or a user's email, and the password (`POST /api/session/login`, which sets
 * the HttpOnly session cookie). A refusal shows the API's message; the throttle's 429 also says when to try again,
 * and the button waits until then.
 */
export function SignInPage({ notice, onSignedIn }: { notice?: string; onSignedIn: () => Promise<void> }) {
  const { form, formError, onSubmit } = useApiForm({
    initialValues: { username: '', password: '' },
    constraints: LoginRequest,
  });
  const [retryAt, setRetryAt] = useState<number>();
  const [now, setNow] = useState(Date.now());
  useInterval(() => setNow(Date.now()), 1000, { autoInvoke: true });
  const waiting = retryAt !== undefined && retryAt > now;

  const submit = onSubmit(async (values) => {
    try {
      await call(api.POST('/api/session/login', { body: values }));
    } catch (error) {
      if (error instanceof ApiError && error.status === 429 && error.retryAfterSeconds !== undefined) {
        setRetryAt(Date.now() + error.retryAfterSeconds * 1000);
        setNow(Date.now());
      }
      throw error;
    }
    await onSignedIn();
  });

  return (
    <AuthCard title="Sign in" notice={notice} intro="Sign in with the admin account or your user's email and password.">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <TextInput label="Username or email" autoComplete="username" required {...form.getInputProps('username')} />
          <PasswordInput
            label="Password"
            autoComplete="current-password"
            required
            {...form.getInputProps('password')}
          />
          {formError !== undefined && <ErrorAlert error={formError} />}
          {waiting && (
            <div role="status" aria-live="polite">
              You can try again in {Math.ceil((retryAt - now) / 1000)} s (at{' '}
              {formatDateTime(new Date(retryAt).toISOString())}).
            </div>
          )}
          <Button type="submit" loading={form.submitting} disabled={waiting}>
            Sign in
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}
