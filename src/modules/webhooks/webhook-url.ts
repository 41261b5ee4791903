import { isIP } from 'node:net';
import { addressRefusal, bareHost, type AddressPolicy } from '../../core/outbound/address-policy.js';

/**
 * Why a webhook URL (already an absolute http(s) URL) is refused by the outbound address policy at write time, or
 * undefined. IP literals are checked here, and `localhost` names (RFC 6761: always loopback); other names are checked
 * on every address they resolve to when a delivery connects.
 */
export function webhookUrlRefusal(url: string, policy: AddressPolicy): string | undefined {
  const host = bareHost(new URL(url).hostname).toLowerCase();
  if (isIP(host)) return addressRefusal(host, policy);
  if ((host === 'localhost' || host.endsWith('.localhost')) && !policy.allow_loopback) {
    return 'loopback addresses are not allowed (outbound.allow_loopback is false)';
  }
  return undefined;
}
