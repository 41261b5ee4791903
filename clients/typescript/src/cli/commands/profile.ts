import { print } from '../output.js';
import { CommandFailure } from '../failure.js';
import { profileFilePath, readProfiles, writeProfiles, type Profile } from '../profiles.js';
import { UsageError, type Invocation } from '../spec.js';

/** profile list | set | use: the profile file, always written with mode 0600. */
export async function run(invocation: Invocation): Promise<number> {
  const op = invocation.path[1];
  const path = profileFilePath();
  const file = (await readProfiles(path)) ?? { profiles: {} };
  if (op === 'list') {
    const rows = Object.entries(file.profiles).map(([name, p]) => ({
      name,
      current: name === file.current ? '*' : '',
      url: p.url ?? '',
      credential: p.api_key ? 'api key' : p.setup_token ? 'setup token' : 'none',
    }));
    await print(invocation, rows, ['current', 'name', 'url', 'credential']);
    return 0;
  }
  const name = invocation.args[0]!;
  if (op === 'use') {
    if (!file.profiles[name]) throw new CommandFailure(`no profile '${name}' in ${path}`);
    await writeProfiles({ ...file, current: name }, path);
    return 0;
  }
  const o = invocation.options;
  const profile: Profile = { ...file.profiles[name] };
  if (typeof o['gateway-url'] === 'string') profile.url = o['gateway-url'];
  if (typeof o['api-key-env'] === 'string') {
    const value = process.env[o['api-key-env']];
    if (!value) throw new UsageError(`environment variable ${o['api-key-env']} is not set`, invocation.path);
    profile.api_key = value;
    delete profile.setup_token;
  } else if (o['api-key-stdin']) {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    profile.api_key = Buffer.concat(chunks).toString('utf8').trim();
    delete profile.setup_token;
  } else if (typeof o['setup-token-env'] === 'string') {
    const value = process.env[o['setup-token-env']];
    if (!value) throw new UsageError(`environment variable ${o['setup-token-env']} is not set`, invocation.path);
    profile.setup_token = value.trim();
    delete profile.api_key;
  }
  const next = { ...file, profiles: { ...file.profiles, [name]: profile } };
  if (o.use || !file.current) next.current = name;
  await writeProfiles(next, path);
  process.stderr.write(`profile ${name} saved in ${path}\n`);
  return 0;
}
