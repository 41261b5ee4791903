import type { FastifyInstance } from 'fastify';
import type { GatewayConfig } from '../../../core/config/gateway-config.js';
import { GatewayException } from '../../../core/errors/gateway.exception.js';

/** The MCP transport's paths: `/mcp` and `/mcp/{client}` (not `/v1/mcp/…` nor `/api/mcp…`). */
const MCP_PATH = /^\/mcp(\/|\?|$)/;
const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'];
/** Listen addresses that name no host a client would write in `Host`. */
const WILDCARD_ADDRESSES = new Set(['', '0.0.0.0', '::', '[::]']);

interface OriginRule {
  scheme: string;
  /** A host, or `.example.com` for the subdomains of `*.example.com`. */
  host: string;
  /** A port, `''` for the scheme's default, `*` for any. */
  port: string;
}

/** `host[:port]` of a Host header or a URL authority, host lower-cased (IPv6 kept in brackets). */
function splitAuthority(authority: string): { host: string; port: string } | undefined {
  const match = /^(\[[0-9a-f:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/i.exec(authority.trim());
  if (!match?.[1]) return undefined;
  return { host: match[1].toLowerCase(), port: match[2] ?? '' };
}

function hostMatches(pattern: string, host: string): boolean {
  if (pattern === '*') return true;
  if (pattern.startsWith('*.')) return host.endsWith(pattern.slice(1)) && host.length > pattern.length - 1;
  return pattern === host;
}

/**
 * DNS-rebinding protection of the MCP transport (a MUST of the MCP Streamable HTTP spec): a request to `/mcp` or
 * `/mcp/{client}` whose `Host` names a host the gateway does not serve, or whose `Origin` is present and not allowed,
 * is refused with 403 before anything else runs (no body is read, no credential looked at).
 *
 * - **Hosts served:** the loopback names (`localhost`, `127.0.0.1`, `[::1]`), the listen address (unless it is a
 *   wildcard such as `0.0.0.0`), `public_base_url`'s host and `mcp.allowed_hosts` (`*.example.com`, `*`); any port.
 * - **Origins allowed:** the request's own (its `Host` with either scheme: same-origin), `public_base_url`'s and
 *   `mcp.allowed_origins` (default `http://localhost:*`; a port `*` for any, `*.example.com`, `*`). An `Origin` of
 *   `null` (sandboxed pages, some redirects) is refused unless `*` is listed.
 */
export class McpOriginPolicy {
  private readonly anyHost: boolean;
  private readonly hosts: string[];
  private readonly anyOrigin: boolean;
  private readonly origins: OriginRule[];

  constructor(config: Pick<GatewayConfig, 'mcp' | 'host' | 'public_base_url'>) {
    const publicUrl = config.public_base_url ? new URL(config.public_base_url) : undefined;
    const listen = config.host.includes(':') && !config.host.startsWith('[') ? `[${config.host}]` : config.host;
    this.hosts = [...LOOPBACK_HOSTS, ...config.mcp.allowed_hosts.map((h) => h.toLowerCase())];
    if (!WILDCARD_ADDRESSES.has(listen)) this.hosts.push(listen.toLowerCase());
    if (publicUrl) this.hosts.push(publicUrl.hostname.toLowerCase());
    this.anyHost = this.hosts.includes('*');

    this.anyOrigin = config.mcp.allowed_origins.includes('*');
    this.origins = config.mcp.allowed_origins.filter((o) => o !== '*').map(parseOriginRule);
    if (publicUrl) {
      this.origins.push({ scheme: publicUrl.protocol.slice(0, -1), host: publicUrl.hostname, port: publicUrl.port });
    }
  }

  /** Why the request must be refused, or undefined when it may go on. */
  refusal(hostHeader: string | undefined, originHeader: string | undefined): GatewayException | undefined {
    const host = hostHeader === undefined ? undefined : splitAuthority(hostHeader);
    if (!host || !(this.anyHost || this.hosts.some((pattern) => hostMatches(pattern, host.host)))) {
      return refused(
        'host',
        `Host '${hostHeader ?? ''}' is not a host this gateway serves for MCP: add it to mcp.allowed_hosts ` +
          '(or set public_base_url)',
      );
    }
    if (originHeader === undefined || this.anyOrigin) return undefined;
    if (this.originAllowed(originHeader, host)) return undefined;
    return refused(
      'origin',
      `Origin '${originHeader}' may not call the MCP server: add it to mcp.allowed_origins if browsers there may`,
    );
  }

  private originAllowed(origin: string, requestHost: { host: string; port: string }): boolean {
    const match = /^(https?):\/\/(.+)$/i.exec(origin);
    const authority = match?.[2] ? splitAuthority(match[2]) : undefined;
    if (!match?.[1] || !authority) return false;
    const scheme = match[1].toLowerCase();
    // Same-origin: the page was served by the host this request is addressed to (already checked above). A Host without
    // a port is the default one of whichever scheme the client used (TLS may end at a proxy in front of the gateway).
    const originPort = authority.port || (scheme === 'https' ? '443' : '80');
    if (authority.host === requestHost.host && (requestHost.port === '' || requestHost.port === originPort))
      return true;
    return this.origins.some(
      (rule) =>
        rule.scheme === scheme &&
        hostMatches(rule.host, authority.host) &&
        (rule.port === '*' || rule.port === authority.port),
    );
  }
}

function parseOriginRule(origin: string): OriginRule {
  const [scheme = '', rest = ''] = origin.toLowerCase().split('://');
  const anyPort = rest.endsWith(':*');
  const authority = splitAuthority(anyPort ? rest.slice(0, -2) : rest);
  const host = authority?.host ?? rest;
  const defaultPort =
    (scheme === 'http' && authority?.port === '80') || (scheme === 'https' && authority?.port === '443');
  return { scheme, host, port: anyPort ? '*' : defaultPort ? '' : (authority?.port ?? '') };
}

function refused(param: 'host' | 'origin', message: string): GatewayException {
  return new GatewayException(403, 'permission_denied', message, { param, reason: 'policy_access_denied' });
}

/** Registers the policy in front of `/mcp` and `/mcp/{client}` (an `onRequest` hook: before body parsing and auth). */
export function registerMcpOriginHook(fastify: FastifyInstance, policy: McpOriginPolicy): void {
  fastify.addHook('onRequest', (request, _reply, done) => {
    if (!MCP_PATH.test(request.url)) return done();
    const origin = request.headers.origin;
    done(policy.refusal(request.headers.host, typeof origin === 'string' ? origin : undefined));
  });
}
