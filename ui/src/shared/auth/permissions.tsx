import { Button, Tooltip, type ButtonProps } from '@mantine/core';
import { createContext, useContext, type ComponentPropsWithoutRef, type ReactNode } from 'react';

/** A `Resource:Operation` permission (docs/auth.md), as `GET /api/governance/users/me/permissions` lists them. */
export type Permission = `${string}:${'View' | 'Create' | 'Update' | 'Delete'}`;

export interface Caller {
  /** The local admin, or any caller where permissions are not enforced (the open-source edition). */
  isAdmin: boolean;
  permissions: ReadonlySet<string>;
  edition: 'oss' | 'enterprise';
}

const CallerContext = createContext<Caller | null>(null);

export function CallerProvider({ caller, children }: { caller: Caller; children: ReactNode }) {
  return <CallerContext.Provider value={caller}>{children}</CallerContext.Provider>;
}

export function useCaller(): Caller {
  const caller = useContext(CallerContext);
  if (!caller) throw new Error('useCaller outside CallerProvider');
  return caller;
}

/** Whether the signed-in caller holds `permission`. Hiding is a courtesy: the API still refuses (403) on its own. */
export function useCan(permission: Permission | undefined): boolean {
  const caller = useCaller();
  return !permission || caller.isAdmin || caller.permissions.has(permission);
}

/** A button for an action that needs a permission: disabled, naming the permission, when the caller lacks it. */
export function GatedButton({
  permission,
  ...props
}: ButtonProps & ComponentPropsWithoutRef<'button'> & { permission: Permission }) {
  const allowed = useCan(permission);
  if (allowed) return <Button {...props} />;
  return (
    <Tooltip label={`Needs the ${permission} permission`}>
      <span>
        <Button {...props} disabled aria-description={`Needs the ${permission} permission`} />
      </span>
    </Tooltip>
  );
}
