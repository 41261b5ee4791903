import type { ReactNode } from 'react';
import { Alert, Button, Code, CopyButton, Group, Modal, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconCopy } from './icons';

/**
 * A secret the API returns once (a virtual key's value, a webhook's signing secret, after a create or a rotation): the
 * dialog says it will not be seen again and offers a copy button. Closing it forgets the value.
 */
export function ShownOnceModal({
  value,
  title,
  label,
  warning,
  usage,
  onClose,
}: {
  /** Undefined: closed. */
  value: string | undefined;
  title: string;
  /** The accessible name of the value ("Virtual key value"). */
  label: string;
  /** Why it is not shown again, and what to do if it is lost. */
  warning: string;
  /** How the value is used. */
  usage: ReactNode;
  onClose: () => void;
}) {
  return (
    <Modal
      opened={value !== undefined}
      onClose={onClose}
      title={title}
      size="lg"
      closeButtonProps={{ 'aria-label': 'Close' }}
      closeOnClickOutside={false}
    >
      {value !== undefined && (
        <Stack gap="sm">
          <Alert
            color="orange"
            icon={<IconAlertTriangle size={18} />}
            title="Copy it now"
            // Mantine's orange title on its light orange fails AA contrast (3.6:1; axe on the management keys screen).
            styles={{ title: { color: 'var(--mantine-color-text)' } }}
          >
            {warning}
          </Alert>
          <Group gap="xs" wrap="nowrap" align="center">
            <Code block style={{ flex: 1, wordBreak: 'break-all', whiteSpace: 'pre-wrap' }} aria-label={label}>
              {value}
            </Code>
            <CopyButton value={value}>
              {({ copied, copy }) => (
                <Button
                  variant={copied ? 'light' : 'filled'}
                  color={copied ? 'green' : undefined}
                  leftSection={copied ? <IconCheck size={16} aria-hidden /> : <IconCopy size={16} aria-hidden />}
                  onClick={copy}
                >
                  {copied ? 'Copied' : 'Copy'}
                </Button>
              )}
            </CopyButton>
          </Group>
          <Text size="sm" c="dimmed">
            {usage}
          </Text>
          <Group justify="flex-end">
            <Button onClick={onClose}>I have copied it</Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
