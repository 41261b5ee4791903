import { readFile } from 'node:fs/promises';
import { FILE_SHAPE, FILE_VERSION } from './file-schema.js';
import type { KindName } from './kind.js';
import { validate } from './schema.js';
import { isObj, sameValue, type Obj } from './values.js';

/** Where something is in the files: `gateway.yaml:12:5`. */
export interface Place {
  file: string;
  path: (string | number)[];
  line?: number;
  col?: number;
}

export const placeText = (p: Place) => `${p.file}${p.line ? `:${p.line}:${p.col}` : ''}`;

/** One problem of the files, reported with every other before anything is written. */
export interface Problem {
  place: Place;
  message: string;
}

/** An object the files ask for, in its file form, with where it was written. */
export interface Desired {
  kind: KindName;
  form: Obj;
  place: Place;
  /** The place of one of its fields (a reference's). */
  at(field: (string | number)[]): Place;
}

export interface LoadedFiles {
  desired: Desired[];
  /** Kinds whose section appears in some file: only those are compared, and pruned with --prune. */
  managed: Set<KindName>;
  select?: { team: string; place: Place };
  problems: Problem[];
}

type Positioned = { locate(path: (string | number)[], atKey?: boolean): { line?: number; col?: number } };

async function parseFile(file: string, problems: Problem[]): Promise<{ data: unknown; doc: Positioned } | undefined> {
  const { parseDocument, LineCounter, isNode, isMap, isScalar } = await import('yaml');
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    problems.push({ place: { file, path: [] }, message: `cannot read: ${(e as Error).message}` });
    return undefined;
  }
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length) {
    for (const error of doc.errors) {
      const at = lineCounter.linePos(error.pos[0]);
      problems.push({ place: { file, path: [], line: at.line, col: at.col }, message: error.message.split('\n')[0]! });
    }
    return undefined;
  }
  const locate = (path: (string | number)[], atKey = false) => {
    // A field's key (an unknown field is pointed at by its name).
    const parent = atKey && path.length ? doc.getIn(path.slice(0, -1), true) : undefined;
    if (isMap(parent)) {
      const pair = parent.items.find((p) => isScalar(p.key) && p.key.value === path.at(-1));
      if (pair && isNode(pair.key) && pair.key.range) {
        const at = lineCounter.linePos(pair.key.range[0]);
        return { line: at.line, col: at.col };
      }
    }
    // The deepest node that exists on the path (an unknown field's own key, or the object missing a field).
    for (let n = path.length; n >= 0; n -= 1) {
      const node = doc.getIn(path.slice(0, n), true);
      if (isNode(node) && node.range) {
        const at = lineCounter.linePos(node.range[0]);
        return { line: at.line, col: at.col };
      }
    }
    return {};
  };
  return { data: doc.toJS() as unknown, doc: { locate } };
}

/**
 * Reads, checks and merges the files: YAML errors with file, line and column; every schema problem (unknown fields,
 * wrong types, secrets given as values) with its place; the same object named twice. Nested parts become objects of
 * their own kinds (a provider's keys and governance).
 */
export async function loadFiles(files: readonly string[]): Promise<LoadedFiles> {
  const problems: Problem[] = [];
  const desired: Desired[] = [];
  const managed = new Set<KindName>();
  let select: LoadedFiles['select'];
  const config: { form: Obj; place: Place }[] = [];
  for (const file of files) {
    const parsed = await parseFile(file, problems);
    if (!parsed) continue;
    const place = (path: (string | number)[], atKey = false): Place => ({
      file,
      path,
      ...parsed.doc.locate(path, atKey),
    });
    const data = parsed.data;
    const schemaProblems = validate(FILE_SHAPE, data);
    for (const p of schemaProblems) {
      problems.push({ place: place(p.path, p.message.startsWith('unknown field')), message: p.message });
    }
    if (!isObj(data)) continue;
    if (data.version !== undefined && data.version !== FILE_VERSION) {
      problems.push({
        place: place(['version']),
        message: `version ${JSON.stringify(data.version)} is not supported (1)`,
      });
      continue;
    }
    if (schemaProblems.length) continue;
    if (isObj(data.select)) {
      const team = String(data.select.team);
      if (select && select.team !== team) {
        problems.push({
          place: place(['select']),
          message: `selects team ${team}, another file selects ${select.team}`,
        });
      } else select = { team, place: place(['select']) };
    }
    for (const [section, value] of Object.entries(data)) {
      if (section === 'version' || section === 'select') continue;
      if (section === 'config') {
        managed.add('config');
        config.push({ form: value as Obj, place: place(['config']) });
        continue;
      }
      const items = value as Obj[];
      if (section === 'providers') {
        managed.add('providers').add('provider_keys').add('provider_governance');
        items.forEach((item, i) => {
          const { keys, governance, ...provider } = item;
          const at = (path: (string | number)[]) => ({
            place: place(path),
            at: (f: (string | number)[]) => place([...path, ...f]),
          });
          desired.push({ kind: 'providers', form: provider, ...at([section, i]) });
          (Array.isArray(keys) ? (keys as Obj[]) : []).forEach((key, j) =>
            desired.push({
              kind: 'provider_keys',
              form: { provider: item.provider, ...key },
              ...at([section, i, 'keys', j]),
            }),
          );
          if (isObj(governance)) {
            desired.push({
              kind: 'provider_governance',
              form: { provider: item.provider, ...governance },
              ...at([section, i, 'governance']),
            });
          }
        });
        continue;
      }
      managed.add(section as KindName);
      items.forEach((item, i) =>
        desired.push({
          kind: section as KindName,
          form: item,
          place: place([section, i]),
          at: (f) => place([section, i, ...f]),
        }),
      );
    }
  }
  if (config.length) desired.push(mergeConfig(config, problems));
  return { desired, managed, select, problems };
}

/** Several files' `config` sections as one: the same setting given two different values is a problem. */
function mergeConfig(parts: { form: Obj; place: Place }[], problems: Problem[]): Desired {
  const merged: Obj = {};
  const walk = (into: Obj, from: Obj, place: Place, path: string[]) => {
    for (const [k, v] of Object.entries(from)) {
      if (isObj(v) && (into[k] === undefined || isObj(into[k]))) {
        walk((into[k] ??= {}) as Obj, v, place, [...path, k]);
      } else if (k in into && !sameValue(into[k], v)) {
        problems.push({ place, message: `config.${[...path, k].join('.')} is set to two different values` });
      } else into[k] = v;
    }
  };
  for (const part of parts) walk(merged, part.form, part.place, []);
  return { kind: 'config', form: merged, place: parts[0]!.place, at: () => parts[0]!.place };
}
