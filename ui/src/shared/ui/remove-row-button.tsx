import { ActionIcon } from '@mantine/core';
import { IconTrash } from './icons';

/** The trash button that removes one row of a form's list (a header, an alias, a budget…); `label` names the row. */
export function RemoveRowButton({ label, onClick, mt }: { label: string; onClick: () => void; mt?: number }) {
  return (
    <ActionIcon mt={mt} variant="subtle" color="red" size="lg" aria-label={label} onClick={onClick}>
      <IconTrash size={16} />
    </ActionIcon>
  );
}
