import { GatewayApiError } from '../../errors.js';
import type { Kind, KindContext, KindName } from './kind.js';
import { KINDS, NAMES_FROM } from './kinds/index.js';
import type { Obj } from './values.js';

export interface LiveObject {
  kind: Kind;
  id: string | number;
  identity: string;
  form: Obj;
  raw: Obj;
}

export type LiveState = Map<KindName, Map<string, LiveObject>>;

/** `kinds` and every kind whose names their file forms show. */
export function withNameSources(kinds: Iterable<KindName>): Set<KindName> {
  const all = new Set<KindName>();
  const add = (k: KindName) => {
    if (all.has(k)) return;
    all.add(k);
    for (const source of NAMES_FROM[k] ?? []) add(source);
  };
  for (const k of kinds) add(k);
  return all;
}

/**
 * Reads the live objects of `kinds` (and the kinds their names come from) and registers their ids and names. A kind
 * the caller may not view is named in `missing` (`Teams:View`) instead of failing the read; other failures throw.
 */
export async function readLive(
  ctx: KindContext,
  kinds: Iterable<KindName>,
): Promise<{ live: LiveState; missing: string[] }> {
  const wanted = KINDS.filter((k) => withNameSources(kinds).has(k.name) && (ctx.enterprise || !k.enterprise));
  const missing: string[] = [];
  const raws = await Promise.all(
    wanted.map(async (kind) => {
      try {
        return { kind, objects: await kind.list(ctx) };
      } catch (error) {
        if (error instanceof GatewayApiError && error.status === 403) {
          missing.push(`${kind.resource}:View`);
          return { kind, objects: [] };
        }
        throw error;
      }
    }),
  );
  for (const { kind, objects } of raws)
    for (const raw of objects) ctx.registry.set(kind.name, kind.idOf(raw), kind.rawName(raw));
  const live: LiveState = new Map();
  for (const { kind, objects } of raws) {
    const byIdentity = new Map<string, LiveObject>();
    for (const raw of objects) {
      const form = kind.toFile(raw, ctx.registry);
      const identity = kind.identity(form);
      byIdentity.set(identity, { kind, id: kind.idOf(raw), identity, form, raw });
    }
    live.set(kind.name, byIdentity);
  }
  return { live, missing: [...new Set(missing)] };
}
