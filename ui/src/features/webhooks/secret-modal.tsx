import { Code } from '@mantine/core';
import { ShownOnceModal } from '../../shared/ui/shown-once-modal';

/** A webhook's signing secret, shown once (the answer of a create or a rotation). */
export function SecretModal({
  shown,
  onClose,
}: {
  shown: { name: string; secret: string; rotated?: boolean } | undefined;
  onClose: () => void;
}) {
  return (
    <ShownOnceModal
      value={shown?.secret}
      title={shown?.rotated ? `New signing secret of ${shown.name}` : `Webhook ${shown?.name ?? ''} created`}
      label="Signing secret"
      warning="You will not see this value again: the gateway shows the signing secret only once. If it is lost, rotate it."
      usage={
        <>
          Your receiver checks <Code>x-gateway-webhook-signature</Code> with it: HMAC-SHA256 of{' '}
          <Code>{'<timestamp>.<raw body>'}</Code> (docs/webhooks.md).
        </>
      }
      onClose={onClose}
    />
  );
}
