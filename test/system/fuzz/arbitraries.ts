import fc from 'fast-check';
import {
  bodyWith,
  fillPath,
  mutationTargets,
  ODD_PATH_VALUES,
  ODD_QUERY_VALUES,
  resolve,
  sampleObject,
  type Fixtures,
  type Operation,
  type Schema,
} from '../../helpers/openapi-input.js';

/**
 * fast-check arbitraries of hostile requests derived from one operation of the committed OpenAPI document: odd path
 * and query parameters, a bad value at one body field (wrong type, boundary, huge, deep, odd strings), missing
 * required and extra fields, and raw bodies no schema describes (malformed JSON, invalid UTF-8, deep nesting, wrong
 * content types, oversize). Each case carries a label saying what it is, so a failure reads without a replay.
 */
export interface FuzzCase {
  label: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  /** The body is refused before any route code runs (parser, content type, size): it may precede authentication. */
  raw?: boolean;
}

type Labelled = { label: string; value: unknown };

const JSON_TYPE = { 'content-type': 'application/json' };
const short = (v: unknown) => {
  const text = typeof v === 'string' ? JSON.stringify(v) : (JSON.stringify(v) ?? String(v));
  return text.length > 40 ? `${text.slice(0, 37)}…(${text.length})` : text;
};
const labelled = (kind: string, arb: fc.Arbitrary<unknown>): fc.Arbitrary<Labelled> =>
  arb.map((value) => ({ label: `${kind} ${short(value)}`, value }));

/** Percent-encodes the UTF-8 bytes of `text` (a lone surrogate becomes U+FFFD; encodeURIComponent would throw). */
function percentEncode(text: string): string {
  return [...Buffer.from(text, 'utf8')]
    .map((b) =>
      /[A-Za-z0-9\-_.~]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).padStart(2, '0')}`,
    )
    .join('');
}

/** Nested arrays or objects `depth` levels deep. */
function nested(depth: number, asObject: boolean): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = asObject ? { a: value } : [value];
  return value;
}

const oddStrings = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 64 }),
  fc.string({ unit: 'grapheme', maxLength: 64 }),
  fc.constantFrom(
    '',
    ' ',
    'a\u0000b',
    '\ud800',
    'x\udfffy',
    '\u202eevil',
    '../../etc/passwd',
    '%00',
    '${jndi:ldap://x}',
    "'; DROP TABLE agents; --",
    '<script>alert(1)</script>',
    '\r\nX-Injected: 1',
    '9'.repeat(400),
  ),
);

const oddNumbers = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(-1, 0, -0, 0.5, 2 ** 31, 2 ** 31 - 1, 2 ** 53, -(2 ** 53), 2 ** 64, 1e308, -1e308, 5e-324),
);

function wrongTypeValue(schema: Schema): fc.Arbitrary<unknown> {
  const others: Array<fc.Arbitrary<unknown>> = [fc.boolean(), fc.constant({}), fc.constant([])];
  if (schema.type !== 'string' && !schema.enum && !schema.oneOf) others.push(oddStrings);
  if (schema.type !== 'integer' && schema.type !== 'number') others.push(oddNumbers);
  if (schema.type === 'integer') others.push(fc.constantFrom(1.5, '1', '1e3', '0x10'));
  if (schema.type === 'boolean') others.push(fc.constantFrom('true', 'false', 1, 0, 'yes'));
  if (schema.type === 'array') others.push(fc.dictionary(fc.string({ maxLength: 5 }), fc.string(), { maxKeys: 3 }));
  if (schema.type === 'object') others.push(fc.array(fc.string(), { maxLength: 3 }));
  return fc.oneof(...others);
}

/** Values at and just over the schema's declared limits (`maximum`, `maxLength`, `maxItems`, `maxProperties`, …). */
function boundaryValues(schema: Schema): unknown[] {
  const out: unknown[] = [];
  if (schema.type === 'integer' || schema.type === 'number') {
    if (schema.minimum !== undefined) out.push(schema.minimum, schema.minimum - 1, schema.minimum - 0.5);
    if (schema.maximum !== undefined) out.push(schema.maximum, schema.maximum + 1, schema.maximum + 0.5);
    if (typeof schema.exclusiveMinimum === 'number') out.push(schema.exclusiveMinimum);
    out.push(Number.MAX_SAFE_INTEGER + 2, -Number.MAX_SAFE_INTEGER - 2);
  }
  if (schema.type === 'string') {
    if (schema.maxLength !== undefined) out.push('x'.repeat(schema.maxLength), 'x'.repeat(schema.maxLength + 1));
    if (schema.minLength !== undefined && schema.minLength > 0) out.push('x'.repeat(schema.minLength - 1));
    if (schema.format) out.push(`not-a-${schema.format}`);
    if (schema.enum?.length) out.push(`${String(schema.enum[0])}x`, String(schema.enum[0]).toUpperCase());
  }
  if (schema.type === 'array') {
    const item = resolve(schema.items)?.type === 'string' ? 'x' : 1;
    if (schema.maxItems !== undefined) out.push(Array.from({ length: schema.maxItems + 1 }, () => item));
    if (schema.minItems !== undefined && schema.minItems > 0) out.push([]);
  }
  if (schema.type === 'object' && schema.maxProperties !== undefined) {
    out.push(Object.fromEntries(Array.from({ length: schema.maxProperties + 1 }, (_, i) => [`k${i}`, 'v'])));
  }
  return out;
}

const hugeValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.integer({ min: 10_000, max: 200_000 }).map((n) => 'x'.repeat(n)),
  fc.integer({ min: 1_000, max: 20_000 }).map((n) => Array.from({ length: n }, (_, i) => i)),
  fc
    .integer({ min: 500, max: 5_000 })
    .map((n) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]))),
);

/** A hostile value for one body field of schema `schema`. */
export function badValue(schema: Schema): fc.Arbitrary<Labelled> {
  const boundary = boundaryValues(schema);
  return fc.oneof(
    labelled('null at', fc.constant(null)),
    labelled('wrong type at', wrongTypeValue(schema)),
    ...(boundary.length ? [labelled('boundary at', fc.constantFrom(...boundary))] : []),
    labelled('huge at', hugeValue),
    labelled('odd string at', oddStrings),
    labelled('odd number at', oddNumbers),
    labelled(
      'deep at',
      fc.tuple(fc.integer({ min: 20, max: 3_000 }), fc.boolean()).map(([d, o]) => nested(d, o)),
    ),
    labelled('json at', fc.jsonValue({ maxDepth: 3 })),
  );
}

/** A path parameter value as sent on the wire (already percent-encoded or deliberately not). */
const oddPathValue: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...ODD_PATH_VALUES, '.', '%2e', '..%2F..%2Fetc', '%E2%82', '%FF%FE', '%C0%AE', '%F0%9F%92%A9', '%20'),
  fc.uuid().filter((u) => !u.startsWith('00000000')),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }).map(percentEncode),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 40 }).map(percentEncode),
  fc
    .uint8Array({ minLength: 1, maxLength: 12 })
    .map((b) => [...b].map((x) => `%${x.toString(16).padStart(2, '0')}`).join('')),
  fc.integer().map(String),
  fc.integer({ min: 256, max: 4_000 }).map((n) => 'a'.repeat(n)),
);

const oddQueryValue: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...ODD_QUERY_VALUES.map(percentEncode), '', '%FF', '%E2%82', '%00', 'null', 'true', '[]', '{}'),
  oddStrings.map(percentEncode),
  oddNumbers.map((n) => percentEncode(String(n))),
  fc.integer({ min: 1_000, max: 6_000 }).map((n) => '9'.repeat(n)),
);

function pathCase(op: Operation, fx: Fixtures): fc.Arbitrary<FuzzCase> | undefined {
  const names = op.parameters.filter((p) => p.in === 'path').map((p) => p.name);
  if (!names.length) return undefined;
  return fc.tuple(fc.constantFrom(...names), oddPathValue).map(([name, raw]) => ({
    label: `path ${name}=${raw.slice(0, 40)}`,
    path: fillPath(op, fx, { name, raw }),
    headers: {},
  }));
}

function queryCase(op: Operation, fx: Fixtures): fc.Arbitrary<FuzzCase> {
  const declared = op.parameters.filter((p) => p.in === 'query').map((p) => p.name);
  const name = declared.length
    ? fc.oneof(
        { arbitrary: fc.constantFrom(...declared), weight: 4 },
        { arbitrary: fc.constant('zz_unknown'), weight: 1 },
      )
    : fc.constant('zz_unknown');
  const path = fillPath(op, fx);
  return fc
    .tuple(name, fc.array(oddQueryValue, { minLength: 1, maxLength: 3 }), fc.boolean())
    .map(([n, values, bare]) => {
      const query = bare && values.length === 1 ? n : values.map((v) => `${n}=${v}`).join('&');
      return { label: `query ${query.slice(0, 60)}`, path: `${path}?${query}`, headers: {} };
    });
}

function bodyFieldCase(op: Operation, fx: Fixtures, root: Schema): fc.Arbitrary<FuzzCase> | undefined {
  const targets = mutationTargets(root);
  if (!targets.length) return undefined;
  const path = fillPath(op, fx);
  return fc
    .constantFrom(...targets)
    .chain((t) => badValue(t.schema).map((bad) => ({ t, bad })))
    .map(({ t, bad }) => ({
      label: `${bad.label} ${t.path}`,
      path,
      headers: JSON_TYPE,
      body: JSON.stringify(bodyWith(root, t.path, bad.value, fx)),
    }));
}

/** The base body without one required field, or with an unknown one beside the declared ones. */
function shapeCase(op: Operation, fx: Fixtures, root: Schema): fc.Arbitrary<FuzzCase> {
  const path = fillPath(op, fx);
  const required = root.required ?? [];
  const extra = fc
    .tuple(
      fc.oneof(fc.stringMatching(/^[A-Za-z0-9_~:%)( -]{1,12}$/), fc.constantFrom('__proto__', 'constructor', 'id')),
      fc.jsonValue({ maxDepth: 2 }),
    )
    .map(([key, value]) => {
      const body = sampleObject(root, fx, '');
      Object.defineProperty(body, key, { value, enumerable: true, configurable: true, writable: true });
      return { label: `extra field ${short(key)}`, path, headers: JSON_TYPE, body: JSON.stringify(body) };
    });
  if (!required.length) return extra;
  const missing = fc.subarray(required, { minLength: 1 }).map((names) => {
    const body = sampleObject(root, fx, '');
    for (const n of names) delete body[n];
    return { label: `missing ${names.join(',')}`, path, headers: JSON_TYPE, body: JSON.stringify(body) };
  });
  return fc.oneof(missing, extra);
}

/** Bodies refused by the parser or the content-type check, before any route code. */
function rawBodyCase(
  op: Operation,
  fx: Fixtures,
  root: Schema | undefined,
  maxBodyBytes: number,
): fc.Arbitrary<FuzzCase> {
  const path = fillPath(op, fx);
  const base = root?.properties ? sampleObject(root, fx, '') : {};
  const valid = JSON.stringify(base);
  const malformed = fc.integer({ min: 0, max: Math.max(0, valid.length - 1) }).chain((cut) =>
    fc
      .constantFrom(
        valid.slice(0, cut),
        `${valid.slice(0, cut)}}}`,
        `${valid.slice(0, cut)},`,
        `${valid},`,
        `'${valid}'`,
        '{"a":1,}',
        'NaN',
        '{a:1}',
      )
      .map((body) => ({
        label: `malformed JSON ${short(body)}`,
        path,
        headers: JSON_TYPE,
        body,
        raw: true,
      })),
  );
  // A string value with bytes no UTF-8 decoder accepts (a lone continuation byte, an overlong form, a surrogate), in
  // the first string field of the base body (or an extra one when it has none).
  const stringField = Object.keys(base).find((k) => typeof base[k] === 'string') ?? 'name';
  const marker = 'FUZZ-UTF8-MARKER';
  const template = JSON.stringify({ ...base, [stringField]: marker });
  const invalidUtf8 = fc
    .constantFrom([0xff], [0xc3], [0x80], [0xc0, 0xae], [0xed, 0xa0, 0x80], [0xf8, 0x88, 0x80, 0x80, 0x80])
    .map((bytes) => {
      const [before, after] = template.split(marker) as [string, string];
      const body = Buffer.concat([Buffer.from(`${before}a`), Buffer.from(bytes), Buffer.from(`b${after}`)]);
      const hex = bytes.map((b) => b.toString(16)).join(' ');
      return { label: `invalid UTF-8 ${hex} in ${stringField}`, path, headers: JSON_TYPE, body };
    });
  const deep = fc.tuple(fc.integer({ min: 100, max: 20_000 }), fc.boolean()).map(([depth, asObject]) => ({
    label: `deep nesting ${depth}${asObject ? ' objects' : ' arrays'}`,
    path,
    headers: JSON_TYPE,
    body: asObject ? `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}` : `${'['.repeat(depth)}${']'.repeat(depth)}`,
    raw: true,
  }));
  const contentType = fc
    .constantFrom(
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/xml',
      'application/json; charset=latin1',
      'application/json; charset=utf-16',
      'application/jsonx',
      '*/*',
      'application/octet-stream',
      '',
    )
    .map((type): FuzzCase => ({
      label: `content-type ${JSON.stringify(type)}`,
      path,
      headers: type ? { 'content-type': type } : {},
      body: valid,
      raw: true,
    }));
  const topLevel = fc.constantFrom('[]', '"text"', '42', 'null', 'true', '').map((body) => ({
    label: `top-level ${JSON.stringify(body)}`,
    path,
    headers: JSON_TYPE,
    body,
  }));
  const oversize = fc.integer({ min: 1, max: 4_096 }).map((over) => ({
    label: `oversize body +${over} bytes`,
    path,
    headers: JSON_TYPE,
    body: `{"name":"${'x'.repeat(maxBodyBytes + over - 11)}"}`,
    raw: true,
  }));
  return fc.oneof(
    { arbitrary: malformed, weight: 3 },
    { arbitrary: invalidUtf8, weight: 3 },
    { arbitrary: deep, weight: 2 },
    { arbitrary: contentType, weight: 3 },
    { arbitrary: topLevel, weight: 2 },
    { arbitrary: oversize, weight: 1 },
  );
}

/** Every kind of hostile request the operation admits, weighted so each kind shows up in a few runs. */
export function caseArbitrary(op: Operation, fx: Fixtures, maxBodyBytes: number): fc.Arbitrary<FuzzCase> {
  const hasBody = ['POST', 'PUT', 'PATCH'].includes(op.method);
  const root = op.body?.properties ? op.body : undefined;
  const kinds: Array<{ arbitrary: fc.Arbitrary<FuzzCase>; weight: number }> = [];
  const push = (arbitrary: fc.Arbitrary<FuzzCase> | undefined, weight: number) => {
    if (arbitrary) kinds.push({ arbitrary, weight });
  };
  push(pathCase(op, fx), 3);
  push(queryCase(op, fx), hasBody ? 1 : 3);
  if (hasBody) {
    if (root) {
      push(bodyFieldCase(op, fx, root), 6);
      push(shapeCase(op, fx, root), 2);
    }
    push(rawBodyCase(op, fx, root, maxBodyBytes), 3);
  }
  return fc.oneof(...kinds);
}
