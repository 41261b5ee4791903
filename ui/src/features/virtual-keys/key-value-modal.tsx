import { Code } from '@mantine/core';
import { ShownOnceModal } from '../../shared/ui/shown-once-modal';

/** A virtual key's value, shown once after a create or a rotation. */
export function KeyValueModal({
  shown,
  onClose,
}: {
  shown: { name: string; value: string; rotated?: boolean } | undefined;
  onClose: () => void;
}) {
  return (
    <ShownOnceModal
      value={shown?.value}
      title={shown?.rotated ? `New value of ${shown.name}` : `Virtual key ${shown?.name ?? ''} created`}
      label="Virtual key value"
      warning="You will not see this value again: the gateway keeps only its hash. If it is lost, rotate the key."
      usage={
        <>
          Applications send it as <Code>Authorization: Bearer …</Code> to /v1.
        </>
      }
      onClose={onClose}
    />
  );
}
