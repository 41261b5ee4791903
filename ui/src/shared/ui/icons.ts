// The icons the dashboard uses, each from its own file: the package's index re-exports 6,000 icons, which Vite
// would parse on every build (about 25 s of a 35 s build). Add an icon here, then import it from this module.
export { default as IconAlertTriangle } from '@tabler/icons-react/dist/esm/icons/IconAlertTriangle.mjs';
export { default as IconArrowDown } from '@tabler/icons-react/dist/esm/icons/IconArrowDown.mjs';
export { default as IconArrowUp } from '@tabler/icons-react/dist/esm/icons/IconArrowUp.mjs';
export { default as IconArrowsSort } from '@tabler/icons-react/dist/esm/icons/IconArrowsSort.mjs';
export { default as IconCheck } from '@tabler/icons-react/dist/esm/icons/IconCheck.mjs';
export { default as IconCopy } from '@tabler/icons-react/dist/esm/icons/IconCopy.mjs';
export { default as IconDashboard } from '@tabler/icons-react/dist/esm/icons/IconDashboard.mjs';
export { default as IconDownload } from '@tabler/icons-react/dist/esm/icons/IconDownload.mjs';
export { default as IconFilter } from '@tabler/icons-react/dist/esm/icons/IconFilter.mjs';
export { default as IconInfoCircle } from '@tabler/icons-react/dist/esm/icons/IconInfoCircle.mjs';
export { default as IconKey } from '@tabler/icons-react/dist/esm/icons/IconKey.mjs';
export { default as IconListDetails } from '@tabler/icons-react/dist/esm/icons/IconListDetails.mjs';
export { default as IconLock } from '@tabler/icons-react/dist/esm/icons/IconLock.mjs';
export { default as IconLogout } from '@tabler/icons-react/dist/esm/icons/IconLogout.mjs';
export { default as IconPencil } from '@tabler/icons-react/dist/esm/icons/IconPencil.mjs';
export { default as IconPlayerPlay } from '@tabler/icons-react/dist/esm/icons/IconPlayerPlay.mjs';
export { default as IconPlus } from '@tabler/icons-react/dist/esm/icons/IconPlus.mjs';
export { default as IconRefresh } from '@tabler/icons-react/dist/esm/icons/IconRefresh.mjs';
export { default as IconRotateClockwise } from '@tabler/icons-react/dist/esm/icons/IconRotateClockwise.mjs';
export { default as IconRoute } from '@tabler/icons-react/dist/esm/icons/IconRoute.mjs';
export { default as IconSearch } from '@tabler/icons-react/dist/esm/icons/IconSearch.mjs';
export { default as IconServer } from '@tabler/icons-react/dist/esm/icons/IconServer.mjs';
export { default as IconTool } from '@tabler/icons-react/dist/esm/icons/IconTool.mjs';
export { default as IconTrash } from '@tabler/icons-react/dist/esm/icons/IconTrash.mjs';
export type { Icon } from '@tabler/icons-react';
// Part 2, operations screens (MCP clients, access profiles, circuit breakers, agents, async jobs and webhooks).
export { default as IconPlug } from '@tabler/icons-react/dist/esm/icons/IconPlug.mjs';
export { default as IconStack2 } from '@tabler/icons-react/dist/esm/icons/IconStack2.mjs';
export { default as IconX } from '@tabler/icons-react/dist/esm/icons/IconX.mjs';
export { default as IconCircuitSwitchOpen } from '@tabler/icons-react/dist/esm/icons/IconCircuitSwitchOpen.mjs';
export { default as IconUserShield } from '@tabler/icons-react/dist/esm/icons/IconUserShield.mjs';
export { default as IconRobot } from '@tabler/icons-react/dist/esm/icons/IconRobot.mjs';
export { default as IconWebhook } from '@tabler/icons-react/dist/esm/icons/IconWebhook.mjs';
// Settings (issue 47 §8).
export { default as IconSettings } from '@tabler/icons-react/dist/esm/icons/IconSettings.mjs';
export { default as IconHistory } from '@tabler/icons-react/dist/esm/icons/IconHistory.mjs';
export { default as IconHourglass } from '@tabler/icons-react/dist/esm/icons/IconHourglass.mjs';
// Teams and customers.
export { default as IconUsersGroup } from '@tabler/icons-react/dist/esm/icons/IconUsersGroup.mjs';
// Users and roles, management keys.
export { default as IconUsers } from '@tabler/icons-react/dist/esm/icons/IconUsers.mjs';
export { default as IconApi } from '@tabler/icons-react/dist/esm/icons/IconApi.mjs';
// Models and pricing.
export { default as IconCoin } from '@tabler/icons-react/dist/esm/icons/IconCoin.mjs';
