import { Button, Group, Modal, Text } from '@mantine/core';
import { createContext, useCallback, useContext, useRef, useState, type ReactNode } from 'react';

export interface ConfirmOptions {
  title: string;
  /** What will happen, naming the object ("Delete the log of request 1f2e…?"). */
  message: ReactNode;
  confirmLabel: string;
  /** A destructive action: red button. */
  danger?: boolean;
}

const ConfirmContext = createContext<((options: ConfirmOptions) => Promise<boolean>) | null>(null);

/** Renders the one confirmation dialog of the app; `useConfirm()` opens it. */
export function ConfirmProvider({ children }: { children: ReactNode }) {
  const [options, setOptions] = useState<ConfirmOptions | null>(null);
  const resolver = useRef<(answer: boolean) => void>(undefined);
  const confirm = useCallback(
    (next: ConfirmOptions) =>
      new Promise<boolean>((resolve) => {
        resolver.current?.(false);
        resolver.current = resolve;
        setOptions(next);
      }),
    [],
  );
  const answer = (value: boolean) => {
    resolver.current?.(value);
    resolver.current = undefined;
    setOptions(null);
  };
  return (
    <ConfirmContext.Provider value={confirm}>
      {children}
      <Modal opened={options !== null} onClose={() => answer(false)} title={options?.title} centered>
        <Text size="sm">{options?.message}</Text>
        <Group justify="flex-end" mt="lg">
          <Button variant="default" onClick={() => answer(false)}>
            Cancel
          </Button>
          <Button color={options?.danger ? 'red' : undefined} onClick={() => answer(true)} data-autofocus>
            {options?.confirmLabel}
          </Button>
        </Group>
      </Modal>
    </ConfirmContext.Provider>
  );
}

/** `await confirm({ title, message, confirmLabel, danger })`: true when the user confirmed. */
export function useConfirm(): (options: ConfirmOptions) => Promise<boolean> {
  const confirm = useContext(ConfirmContext);
  if (!confirm) throw new Error('useConfirm outside ConfirmProvider');
  return confirm;
}
