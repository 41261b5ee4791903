import { GatedButton, type Permission } from '../auth/permissions';
import { IconPencil, IconTrash } from './icons';

interface Action {
  /** Without it the button is disabled and says which permission it needs. */
  permission: Permission;
  onClick: () => void;
}

/**
 * A row's Edit and Delete buttons, each behind its permission and named after the object (`Edit key prod`,
 * `Delete key prod`), for a screen's table or card; the caller's group holds them with any other action.
 */
export function EditDeleteButtons({ object, edit, remove }: { object: string; edit: Action; remove: Action }) {
  return (
    <>
      <GatedButton
        permission={edit.permission}
        size="compact-sm"
        variant="subtle"
        leftSection={<IconPencil size={14} aria-hidden />}
        aria-label={`Edit ${object}`}
        onClick={edit.onClick}
      >
        Edit
      </GatedButton>
      <GatedButton
        permission={remove.permission}
        size="compact-sm"
        variant="subtle"
        color="red"
        leftSection={<IconTrash size={14} aria-hidden />}
        aria-label={`Delete ${object}`}
        onClick={remove.onClick}
      >
        Delete
      </GatedButton>
    </>
  );
}
