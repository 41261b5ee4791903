import { clientFor } from '../context.js';
import { outputFormat, print } from '../output.js';
import type { Invocation } from '../spec.js';

/** Version, edition, who the caller is and its permissions. */
export async function run(invocation: Invocation): Promise<number> {
  const { client, connection } = await clientFor(invocation);
  const [version, me] = await Promise.all([client.version(), client.whoami()]);
  const status = {
    url: connection.url,
    connection: connection.source,
    version: version.version,
    api_version: version.api_version,
    edition: version.edition,
    principal: me.principal,
    is_admin: me.is_admin,
    permissions: me.permissions,
  };
  if (outputFormat(invocation) !== 'table') {
    await print(invocation, status);
    return 0;
  }
  const who = [me.principal.kind, me.principal.name ?? me.principal.id].filter(Boolean).join(' ');
  process.stdout.write(
    [
      `gateway      ${status.url} (${status.connection})`,
      `version      ${status.version} (api ${status.api_version}, edition ${status.edition})`,
      `caller       ${who} via ${me.principal.auth_method}${me.is_admin ? ', admin' : ''}`,
      `permissions  ${me.is_admin ? 'all' : me.permissions.length ? me.permissions.join(', ') : 'none'}`,
    ].join('\n') + '\n',
  );
  return 0;
}
