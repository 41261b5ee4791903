import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { Agent, fetch as undiciFetch } from 'undici';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { addressRefusal, bareHost, type AddressPolicy } from '../../../core/outbound/address-policy.js';
import { OutboundAddressRefusedError } from '../../../core/outbound/outbound-http.service.js';

/** Why `url` may not be connected to under `policy` (scheme, IP literal), or undefined. Names are checked at connect. */
export function urlRefusal(url: string, policy: AddressPolicy): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'is not a valid absolute URL';
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return 'must use http or https';
  const host = bareHost(parsed.hostname);
  return isIP(host) ? addressRefusal(host, policy) : undefined;
}

/**
 * The fetch the MCP SDK transports use: the outbound address policy of the core (`outbound.allow_loopback`,
 * `allow_private_networks`, metadata addresses never) checked on IP literals and, for names, on every address the
 * name resolves to inside the socket's DNS lookup (no rebinding between check and connect). Redirects are refused.
 */
export class PolicyFetch {
  private readonly agent: Agent;

  constructor(private readonly policy: AddressPolicy) {
    const lookup: LookupFunction = (hostname, options, callback) => {
      dnsLookup(hostname, { family: options.family, hints: options.hints, all: true }, (err, addresses) => {
        if (err) return callback(err, '', 0);
        const list: LookupAddress[] = addresses;
        for (const a of list) {
          const why = addressRefusal(a.address, this.policy);
          if (why) return callback(new OutboundAddressRefusedError(hostname, why), '', 0);
        }
        const first = list[0];
        if (!first)
          return callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), '', 0);
        if (options.all) (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
        else callback(null, first.address, first.family);
      });
    };
    this.agent = new Agent({ connect: { lookup, timeout: 10_000 }, bodyTimeout: 0, headersTimeout: 60_000 });
  }

  readonly fetch: FetchLike = async (url, init) => {
    const href = url instanceof URL ? url.href : url;
    const why = urlRefusal(href, this.policy);
    if (why) throw new OutboundAddressRefusedError(new URL(href).host, why);
    const response = await undiciFetch(href, {
      ...(init as Parameters<typeof undiciFetch>[1]),
      redirect: init?.redirect ?? 'error',
      dispatcher: this.agent,
    });
    return response;
  };

  close(): Promise<void> {
    return this.agent.close().catch(() => undefined);
  }
}
