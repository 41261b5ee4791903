import { BlockList, isIP } from 'node:net';

/** Which destinations outbound requests may reach (`GatewayConfig.outbound`). */
export interface AddressPolicy {
  allow_loopback: boolean;
  allow_private_networks: boolean;
}

function blockList(v4: string[], v6: string[]): BlockList {
  const list = new BlockList();
  for (const range of v4) {
    const [net, prefix] = range.split('/') as [string, string];
    list.addSubnet(net, Number(prefix), 'ipv4');
  }
  for (const range of v6) {
    const [net, prefix] = range.split('/') as [string, string];
    list.addSubnet(net, Number(prefix), 'ipv6');
  }
  return list;
}

// Cloud metadata endpoints answer with instance credentials: never reachable, whatever the config says. The whole
// IPv4 link-local range is included because several clouds serve metadata on other addresses in it.
const METADATA = blockList(['169.254.0.0/16', '100.100.100.200/32'], ['fd00:ec2::254/128', 'fe80::/10']);
// 0.0.0.0 and :: reach the local host on Linux, so they count as loopback.
const LOOPBACK = blockList(['127.0.0.0/8', '0.0.0.0/8'], ['::1/128', '::/128']);
const PRIVATE = blockList(['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '100.64.0.0/10'], ['fc00::/7']);

/**
 * Why `address` (an IP literal) may not be reached under `policy`, or undefined when it may. IPv4-mapped IPv6
 * addresses (`::ffff:127.0.0.1`) are matched against the IPv4 ranges by BlockList itself.
 */
export function addressRefusal(address: string, policy: AddressPolicy): string | undefined {
  // Checked on every call to an IP-literal upstream: remembered per address and policy (BlockList builds an object per
  // check). The answer depends on nothing else, so the memo never goes stale; it is bounded all the same.
  const memoKey = `${address}|${policy.allow_loopback ? 1 : 0}${policy.allow_private_networks ? 1 : 0}`;
  const memo = REFUSALS.get(memoKey);
  if (memo !== undefined) return memo || undefined;
  const refusal = checkAddress(address, policy);
  if (REFUSALS.size >= MAX_REMEMBERED) REFUSALS.clear();
  REFUSALS.set(memoKey, refusal ?? '');
  return refusal;
}

const REFUSALS = new Map<string, string>();
const MAX_REMEMBERED = 4096;

function checkAddress(address: string, policy: AddressPolicy): string | undefined {
  const family = isIP(address);
  if (family === 0) return 'not an IP address';
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (METADATA.check(address, type)) return 'cloud metadata and link-local addresses are never allowed';
  if (LOOPBACK.check(address, type) && !policy.allow_loopback) {
    return 'loopback addresses are not allowed (outbound.allow_loopback is false)';
  }
  if (PRIVATE.check(address, type) && !policy.allow_private_networks) {
    return 'private network addresses are not allowed (outbound.allow_private_networks is false)';
  }
  return undefined;
}

/** The host of a URL without IPv6 brackets (`[::1]` → `::1`). */
export function bareHost(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}
