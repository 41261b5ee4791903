import { FILE_VERSION } from './file-schema.js';
import type { KindName } from './kind.js';
import { KINDS, TEAM_OWNED } from './kinds/index.js';
import type { LiveObject, LiveState } from './live.js';
import type { Obj } from './values.js';

const byIdentity = (a: LiveObject, b: LiveObject) => (a.identity < b.identity ? -1 : a.identity > b.identity ? 1 : 0);

/**
 * The live state as a file: sections in dependency order, objects sorted by identity, a provider's keys and governance
 * nested under it. The same state always gives the same bytes.
 */
export function exportDocument(live: LiveState, options: { selectTeam?: string } = {}): Obj {
  const doc: Obj = { version: FILE_VERSION };
  if (options.selectTeam) doc.select = { team: options.selectTeam };
  const find = (kind: KindName, name: string) => live.get(kind)?.get(name)?.form;
  const objects = (kind: KindName) => {
    const all = [...(live.get(kind)?.values() ?? [])].sort(byIdentity);
    if (!options.selectTeam) return all;
    const k = KINDS.find((x) => x.name === kind)!;
    return TEAM_OWNED.includes(kind) ? all.filter((o) => k.ownerTeam?.(o.form, find) === options.selectTeam) : [];
  };
  for (const kind of KINDS) {
    if (!live.has(kind.name) || kind.name === 'provider_keys' || kind.name === 'provider_governance') continue;
    const list = objects(kind.name);
    if (kind.name === 'config') {
      const form = list[0]?.form;
      if (form && Object.keys(form).length) doc.config = form;
      continue;
    }
    if (kind.name === 'providers') {
      if (!list.length) continue;
      const keys = objects('provider_keys');
      const governance = objects('provider_governance');
      doc.providers = list.map((p) => {
        const own = keys.filter((k) => k.form.provider === p.identity).map(({ form: { provider: _, ...key } }) => key);
        const gov = governance.find((g) => g.identity === p.identity);
        const { provider: _p, ...govForm } = gov?.form ?? {};
        return { ...p.form, ...(gov ? { governance: govForm } : {}), keys: own };
      });
      continue;
    }
    if (list.length || !options.selectTeam) {
      if (list.length) doc[kind.name] = list.map((o) => o.form);
    }
  }
  return doc;
}
