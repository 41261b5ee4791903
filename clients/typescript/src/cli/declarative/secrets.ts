import { readFileSync } from 'node:fs';
import type { Problem } from './load.js';
import type { Plan } from './plan.js';
import { isCliSecret, isObj } from './values.js';

/** Reads a CLI-resolved secret: an environment variable of this process, or a file's content (trailing newline cut). */
function read(secret: { fromEnv: string } | { fromFile: string }): string | undefined {
  if ('fromEnv' in secret) return process.env[secret.fromEnv] || undefined;
  try {
    return readFileSync(secret.fromFile, 'utf8').replace(/\r?\n$/, '');
  } catch {
    return undefined;
  }
}

/** `value` with every CLI-resolved secret replaced by its value (references the gateway resolves pass through). */
export function resolveSecrets(value: unknown): unknown {
  if (isCliSecret(value)) {
    const resolved = read(value);
    if (resolved === undefined) throw new Error('unresolved secret (checked before any write)');
    return resolved;
  }
  if (Array.isArray(value)) return value.map(resolveSecrets);
  if (isObj(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveSecrets(v)]));
  return value;
}

function* cliSecrets(value: unknown): Generator<{ fromEnv: string } | { fromFile: string }> {
  if (isCliSecret(value)) yield value;
  else if (Array.isArray(value)) for (const v of value) yield* cliSecrets(v);
  else if (isObj(value)) for (const v of Object.values(value)) yield* cliSecrets(v);
}

/** Every CLI-resolved secret the plan will send that cannot be read, as problems (before any write). */
export function unreadableSecrets(plan: Plan): Problem[] {
  const problems: Problem[] = [];
  for (const step of plan.steps) {
    const sent = step.action === 'create' ? step.desired?.form : step.changed;
    for (const secret of cliSecrets(sent)) {
      if (read(secret) !== undefined) continue;
      problems.push({
        place: step.desired!.place,
        message:
          'fromEnv' in secret
            ? `environment variable ${secret.fromEnv} is not set (the secret's value is read from it)`
            : `cannot read the secret file ${secret.fromFile}`,
      });
    }
  }
  return problems;
}
