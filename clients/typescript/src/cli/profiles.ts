import { chmod, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { CommandFailure } from './failure.js';

/** One connection of the profile file. */
export interface Profile {
  url?: string;
  api_key?: string;
  setup_token?: string;
}

export interface ProfileFile {
  current?: string;
  profiles: Record<string, Profile>;
}

/** `GATEWAY_PROFILE_FILE`, else `$XDG_CONFIG_HOME/gatewayctl/profiles.yaml` (`~/.config/…`). */
export function profileFilePath(env = process.env): string {
  if (env.GATEWAY_PROFILE_FILE) return env.GATEWAY_PROFILE_FILE;
  return join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'gatewayctl', 'profiles.yaml');
}

/**
 * Reads the profile file (undefined when there is none). It holds credentials, so one that others may read (any
 * group or other permission bit) is refused, as ssh refuses such a key.
 */
export async function readProfiles(path = profileFilePath()): Promise<ProfileFile | undefined> {
  let mode: number;
  try {
    mode = (await stat(path)).mode;
  } catch {
    return undefined;
  }
  if (mode & 0o077) {
    throw new CommandFailure(
      `${path} is readable by others (mode ${(mode & 0o777).toString(8)}): run chmod 600 ${path}`,
    );
  }
  const { parse } = await import('yaml');
  const parsed = parse(await readFile(path, 'utf8')) as ProfileFile | null;
  if (!parsed || typeof parsed !== 'object' || typeof parsed.profiles !== 'object' || parsed.profiles === null) {
    throw new CommandFailure(`${path}: expected a 'profiles' map`);
  }
  return parsed;
}

/** Writes the profile file with mode 0600 (its directory 0700). */
export async function writeProfiles(file: ProfileFile, path = profileFilePath()): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const { stringify } = await import('yaml');
  await writeFile(path, stringify(file), { mode: 0o600 });
  await chmod(path, 0o600);
}
