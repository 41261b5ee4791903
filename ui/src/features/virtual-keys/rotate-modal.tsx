import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { VirtualKeyRotateRequest } from '../../api/constraints.gen';
import { api, call } from '../../api/client';
import { useApiForm } from '../../shared/forms/use-api-form';
import { ErrorAlert } from '../../shared/ui/error-alert';
import type { VirtualKey } from './virtual-key-values';

interface RotateValues extends Record<string, unknown> {
  grace_period: string;
}

const rotateRequest = (values: RotateValues) =>
  values.grace_period.trim() ? { grace_period: values.grace_period.trim() } : {};

/** A new value for a key; the old one keeps working for the grace period (none: it stops at once). */
export function RotateModal({
  target,
  onClose,
  onRotated,
}: {
  target: VirtualKey | undefined;
  onClose: () => void;
  onRotated: (key: VirtualKey) => void;
}) {
  return (
    <Modal opened={target !== undefined} onClose={onClose} title={`Rotate ${target?.name ?? ''}`}>
      {target && <RotateForm target={target} onCancel={onClose} onRotated={onRotated} />}
    </Modal>
  );
}

function RotateForm({
  target,
  onCancel,
  onRotated,
}: {
  target: VirtualKey;
  onCancel: () => void;
  onRotated: (key: VirtualKey) => void;
}) {
  const { form, formError, onSubmit } = useApiForm<RotateValues>({
    initialValues: { grace_period: '5m' },
    constraints: VirtualKeyRotateRequest,
    toRequest: rotateRequest,
  });
  const submit = onSubmit(async (values) => {
    const rotated = await call(
      api.POST('/api/governance/virtual-keys/{vk_id}/rotate', {
        params: { path: { vk_id: target.id } },
        body: rotateRequest(values),
      }),
    );
    onRotated(rotated.virtual_key);
  });
  return (
    <form onSubmit={submit} noValidate aria-label="Rotate the key">
      <Stack gap="sm">
        <Text size="sm">
          The key gets a new value, shown once. Applications using the old one keep working for the grace period.
        </Text>
        <TextInput
          label="Grace period"
          description="30s, 5m, 1h; empty: the old value stops at once"
          {...form.getInputProps('grace_period')}
        />
        {formError !== undefined && <ErrorAlert error={formError} />}
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" color="orange" loading={form.submitting}>
            Rotate
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
