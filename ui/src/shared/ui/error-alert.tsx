import { Alert } from '@mantine/core';
import { IconAlertTriangle, IconLock } from './icons';
import { ApiError, describeError } from '../../api/errors';

/** An API refusal as a person reads it: the API's own message, titled by what kind of refusal it is. */
export function ErrorAlert({ error, onClose }: { error: unknown; onClose?: () => void }) {
  if (!error) return null;
  const { title, message } = describeError(error);
  const forbidden = error instanceof ApiError && error.code === 'permission_denied';
  return (
    <Alert
      role="alert"
      color={forbidden ? 'orange' : 'red'}
      title={title}
      icon={forbidden ? <IconLock size={18} /> : <IconAlertTriangle size={18} />}
      withCloseButton={!!onClose}
      onClose={onClose}
      closeButtonLabel="Dismiss"
    >
      {message}
    </Alert>
  );
}
