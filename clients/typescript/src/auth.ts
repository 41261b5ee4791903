/**
 * How the client proves who it is to the management API (docs/auth.md):
 * - `apiKey`: a management API key (`gwm_…`), sent as `Authorization: Bearer`; in the enterprise edition it holds only
 *   its scopes.
 * - `sessionToken`: a dashboard session token from `POST /api/session/login` (see `GatewayClient.login`).
 * - `setupToken`: the open-source setup lock's token (`X-Gateway-Setup-Token`), while dashboard auth is off.
 * - `basic`: the local admin's username and password (dashboard auth on).
 */
export type GatewayAuth =
  | { apiKey: string }
  | { sessionToken: string }
  | { setupToken: string }
  | { basic: { username: string; password: string } };

/** The request headers that carry `auth`. */
export function authHeaders(auth: GatewayAuth | undefined): Record<string, string> {
  if (!auth) return {};
  if ('apiKey' in auth) return { authorization: `Bearer ${auth.apiKey}` };
  if ('sessionToken' in auth) return { authorization: `Bearer ${auth.sessionToken}` };
  if ('setupToken' in auth) return { 'x-gateway-setup-token': auth.setupToken };
  const pair = Buffer.from(`${auth.basic.username}:${auth.basic.password}`, 'utf8').toString('base64');
  return { authorization: `Basic ${pair}` };
}
