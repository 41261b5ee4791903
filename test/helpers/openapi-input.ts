import { readFileSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { expect } from 'vitest';
import { ERROR_CODES } from '../../src/core/errors/error-catalogue.js';
import type { TestApp } from './test-app.js';

/**
 * The committed OpenAPI document read as test input (issue 8's bad-input sweep, issue 18's fuzzer): its operations,
 * the field paths each declares, base bodies built from its schemas with a hostile value placed at one field, and the
 * judgement of an answer (below 500, a GatewayError with a catalogued code, a 400 naming a declared field).
 */

export interface Schema {
  $ref?: string;
  type?: string;
  format?: string;
  enum?: unknown[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  additionalProperties?: Schema | boolean;
  oneOf?: Schema[];
  allOf?: Schema[];
  nullable?: boolean;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number | boolean;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  maxProperties?: number;
  pattern?: string;
}
export interface Parameter {
  name: string;
  in: string;
  schema?: Schema;
}
export interface Operation {
  method: string;
  path: string;
  id: string;
  parameters: Parameter[];
  body?: Schema;
  security: string[];
}

export interface Answer {
  status: number;
  text: string;
}

export const document = JSON.parse(readFileSync(join(import.meta.dirname, '../../openapi/openapi.json'), 'utf8')) as {
  paths: Record<string, Record<string, any>>;
  components: { schemas: Record<string, Schema> };
};

export function resolve(schema: Schema | undefined): Schema | undefined {
  if (!schema) return undefined;
  if (schema.$ref) return resolve(document.components.schemas[schema.$ref.replace('#/components/schemas/', '')]);
  if (schema.allOf?.length === 1) return resolve(schema.allOf[0]);
  return schema;
}

export function operations(): Operation[] {
  const ops: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, op] of Object.entries(item)) {
      ops.push({
        method: method.toUpperCase(),
        path,
        id: `${method.toUpperCase()} ${path}`,
        parameters: op.parameters ?? [],
        body: resolve(op.requestBody?.content?.['application/json']?.schema),
        security: (op.security ?? []).flatMap((s: Record<string, unknown>) => Object.keys(s)),
      });
    }
  }
  return ops;
}

/** Every field path the body schema declares: `a`, `a.b`, `a.list[]`, `a.map.*` (a map's entries). */
export function fieldPaths(schema: Schema | undefined, prefix = '', out = new Set<string>(), depth = 0): Set<string> {
  const s = resolve(schema);
  if (!s || depth > 6) return out;
  for (const [name, child] of Object.entries(s.properties ?? {})) {
    const path = prefix ? `${prefix}.${name}` : name;
    out.add(path);
    fieldPaths(child, path, out, depth + 1);
  }
  for (const name of s.required ?? []) out.add(prefix ? `${prefix}.${name}` : name);
  for (const variant of s.oneOf ?? []) fieldPaths(variant, prefix, out, depth + 1);
  if (s.items && prefix) {
    out.add(`${prefix}[]`);
    fieldPaths(s.items, `${prefix}[]`, out, depth + 1);
  }
  if (s.additionalProperties && typeof s.additionalProperties === 'object' && prefix) {
    out.add(`${prefix}.*`);
    fieldPaths(s.additionalProperties, `${prefix}.*`, out, depth + 1);
  }
  return out;
}

const isFreeForm = (schema: Schema | undefined) => {
  const s = resolve(schema);
  return !!s && !s.type && !s.properties && !s.oneOf && !s.allOf && !s.items && !s.enum;
};

/**
 * Body paths below which the document declares no shape (`items: {}`, `additionalProperties: true`): a field under
 * one is one the operation takes (a provider-format message's `role`). `''` is the body itself.
 */
export function openPaths(schema: Schema | undefined, prefix = '', out = new Set<string>(), depth = 0): Set<string> {
  const s = resolve(schema);
  if (!s || depth > 6) return out;
  if (s.additionalProperties === true) out.add(prefix);
  for (const [name, child] of Object.entries(s.properties ?? {})) {
    openPaths(child, prefix ? `${prefix}.${name}` : name, out, depth + 1);
  }
  for (const variant of s.oneOf ?? []) openPaths(variant, prefix, out, depth + 1);
  if (s.items && prefix) {
    if (isFreeForm(s.items)) out.add(`${prefix}[]`);
    else openPaths(s.items, `${prefix}[]`, out, depth + 1);
  }
  return out;
}

/** True when `param` names a field of the operation: a parameter, a body field path, or the body itself. */
export function namesAField(op: Operation, param: string | undefined): boolean {
  if (param === undefined) return false;
  if (param === 'body' || op.parameters.some((p) => p.name === param)) return true;
  const normalized = param.replace(/\[\d+\]/g, '[]');
  const fields = fieldPaths(op.body);
  if (fields.has(normalized)) return true;
  const declaredTop = new Set(Object.keys(resolve(op.body)?.properties ?? {}));
  for (const open of openPaths(op.body)) {
    // An open body takes undeclared top-level fields; a declared one keeps its declared shape.
    if (open === '' && !declaredTop.has(normalized.split(/[.[]/)[0]!)) return true;
    if (open && (normalized.startsWith(`${open}.`) || normalized.startsWith(`${open}[`))) return true;
  }
  // A map entry (`headers.X-Custom`) matches `headers.*`.
  return [...fields].some(
    (f) => f.includes('*') && new RegExp(`^${f.replace(/[.[\]]/g, '\\$&').replace('\\.*', '\\.[^.]+')}$`).test(param),
  );
}

/**
 * An unknown field the request sent is named itself (docs/errors.md: the field at fault), with the message saying
 * so; the object holding it must be the body or a declared field.
 */
export function namesAnUnknownField(op: Operation, param: string | undefined, message: string): boolean {
  if (!param || message !== `${param} is not a known field`) return false;
  const parent = param.includes('.') ? param.slice(0, param.lastIndexOf('.')) : 'body';
  return namesAField(op, parent);
}

export interface Fixtures {
  agentName: string;
  agentCardUrl: string;
  virtualKey: string;
  /** A second key, the target of rotate and update (rotating the first would lock the data plane out). */
  otherVkId: string;
  roleId: string;
  userId: string;
  managementKeyId: string;
  teamId: string;
  customerId: string;
  /** A budget of `otherVkId` (the override routes). */
  budgetId: string;
  modelConfigId: string;
  routingRuleId: string;
  pricingOverrideId: string;
}

/** A value the schema accepts, for the fields a case does not touch. */
export function sample(name: string, schema: Schema | undefined, fx: Fixtures): unknown {
  const overrides: Record<string, unknown> = {
    agent_card_url: fx.agentCardUrl,
    role_id: fx.roleId,
    ids: [fx.otherVkId],
    customer_id: fx.customerId,
    email: 'sweep@example.com',
    password: 'sweep-password-1',
    username: 'admin',
    name: 'sweep-agent',
    jsonrpc: '2.0',
    method: 'GetTask',
  };
  if (name in overrides) return overrides[name];
  const s = resolve(schema);
  if (!s) return 'sweep';
  if (s.enum?.length) return s.enum[0];
  if (s.oneOf?.length) return sample(name, s.oneOf[0], fx);
  if (s.type === 'boolean') return true;
  if (s.type === 'integer' || s.type === 'number') return 1;
  if (s.type === 'array') return [];
  if (s.type === 'object') return sampleObject(s, fx, '');
  return s.format === 'uri' ? fx.agentCardUrl : s.format === 'date-time' ? '2999-01-01T00:00:00Z' : 'sweep';
}

/** The required fields of an object schema (plus `allow_by_default` so a PUT keeps the agent reachable). */
export function sampleObject(schema: Schema, fx: Fixtures, target: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, child] of Object.entries(schema.properties ?? {})) {
    if (schema.required?.includes(name) || name === 'allow_by_default') out[name] = sample(name, child, fx);
  }
  // An upstream auth block is only checked in depth for its type: pick the one the target field belongs to.
  if ('type' in out && schema.properties?.oauth) {
    out.type = target.startsWith('oauth') ? 'oauth' : target.startsWith('headers') ? 'headers' : 'none';
    if (out.type === 'oauth') out.oauth = { client_id: 'id', client_secret: 'secret', token_url: fx.agentCardUrl };
    if (out.type === 'headers') out.headers = { 'X-Custom': 'value' };
  }
  return out;
}

/** A base body with `value` placed at `path` (dotted, `[0]` for array items), parents filled in from the schema. */
export function bodyWith(root: Schema, path: string, value: unknown, fx: Fixtures): Record<string, unknown> {
  const parts = path.replace(/\[0\]/g, '.0').split('.');
  const body = sampleObject(root, fx, path);
  let node: any = body;
  let schema: Schema | undefined = root;
  for (let i = 0; i < parts.length - 1; i++) {
    const part = parts[i]!;
    const rest = parts.slice(i + 1).join('.');
    const childSchema: Schema | undefined =
      part === '0' ? resolve(schema?.items) : resolve(schema?.properties?.[part] ?? undefined);
    if (node[part] === undefined || typeof node[part] !== 'object' || node[part] === null) {
      node[part] = childSchema?.type === 'array' ? [] : childSchema ? sampleObject(childSchema, fx, rest) : {};
    } else if (childSchema?.properties?.oauth && !Array.isArray(node[part])) {
      node[part] = sampleObject(childSchema, fx, rest);
    }
    node = node[part];
    schema =
      childSchema?.additionalProperties && typeof childSchema.additionalProperties === 'object' ? {} : childSchema;
  }
  node[parts[parts.length - 1]!] = value;
  return body;
}

/** Leaf and inner field paths to mutate, with their schema (`[0]` for array items, `X-Custom` for map entries). */
export function mutationTargets(
  schema: Schema | undefined,
  prefix = '',
  depth = 0,
): Array<{ path: string; schema: Schema }> {
  const s = resolve(schema);
  if (!s || depth > 5) return [];
  const out: Array<{ path: string; schema: Schema }> = [];
  for (const [name, child] of Object.entries(s.properties ?? {})) {
    const path = prefix ? `${prefix}.${name}` : name;
    const c = resolve(child) ?? {};
    out.push({ path, schema: c });
    if (c.properties) out.push(...mutationTargets(c, path, depth + 1));
    if (c.items) out.push({ path: `${path}[0]`, schema: resolve(c.items) ?? {} });
    if (c.additionalProperties && typeof c.additionalProperties === 'object') {
      out.push({ path: `${path}.X-Custom`, schema: resolve(c.additionalProperties) ?? {} });
    }
  }
  return out;
}

export function wrongType(schema: Schema): unknown {
  if (schema.type === 'string' || schema.oneOf || schema.enum) return 12345;
  return 'not-the-right-type';
}

export function hugeValue(schema: Schema): unknown {
  if (schema.type === 'array') return Array.from({ length: 5000 }, (_, i) => `item-${i}`);
  if (schema.type === 'integer' || schema.type === 'number') return 1e30;
  if (schema.type === 'object' && !schema.oneOf)
    return Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`k${i}`, 'v']));
  return 'x'.repeat(100_000);
}

export function pathValue(op: Operation, name: string, fx: Fixtures): string {
  if (name === 'name') return fx.agentName;
  if (name === 'path') return 'tasks';
  if (name === 'vk_id') return fx.otherVkId;
  if (name === 'team_id') return fx.teamId;
  if (name === 'customer_id') return fx.customerId;
  if (name === 'budget_id') return fx.budgetId;
  if (name === 'mc_id') return fx.modelConfigId;
  if (name === 'provider') return 'openai';
  if (name === 'id' && op.path.includes('/users/')) return fx.userId;
  if (name === 'id' && op.path.includes('/roles/')) return fx.roleId;
  if (name === 'id' && op.path.includes('/management-keys/')) return fx.managementKeyId;
  if (name === 'rule_id') return fx.routingRuleId;
  if (name === 'id' && op.path.includes('/pricing-overrides/')) return fx.pricingOverrideId;
  return '00000000-0000-4000-8000-000000000000';
}

export function fillPath(op: Operation, fx: Fixtures, override?: { name: string; raw: string }): string {
  return op.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
    override?.name === name ? override.raw : encodeURIComponent(pathValue(op, name, fx)),
  );
}

export const ODD_PATH_VALUES = ['x'.repeat(300), '%00', 'a%00b', '%ZZ', '..', '%2e%2e', 'a%2Fb'];
export const ODD_QUERY_VALUES = [
  'a\u0000b',
  '0x10',
  '1e3',
  '+5',
  ' 5',
  '5.0',
  '-1',
  '9'.repeat(40),
  '1e30',
  'x'.repeat(5000),
];

export interface RawCall {
  method: string;
  /** Sent as written (node:http keeps `..`, `%ZZ` and long segments). */
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

/** One raw request; a failed connection or a timeout is status 0 (judged as a server error). */
export function send(baseUrl: string, agent: Agent, call: RawCall, timeoutMs = 15_000): Promise<Answer> {
  const url = new URL(baseUrl);
  return new Promise((resolvePromise) => {
    const req = httpRequest(
      {
        agent,
        host: url.hostname,
        port: url.port,
        method: call.method,
        path: call.path,
        headers: {
          ...call.headers,
          ...(call.body !== undefined ? { 'content-length': Buffer.byteLength(call.body) } : {}),
        },
        timeout: timeoutMs,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolvePromise({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', (err) => resolvePromise({ status: 0, text: `response failed: ${err.message}` }));
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (err) => resolvePromise({ status: 0, text: `request failed: ${err.message}` }));
    if (call.body !== undefined) req.write(call.body);
    req.end();
  });
}

/**
 * The provider-format routes answer in their provider's error shape and keep the GatewayError's fields inside it
 * (docs/inference.md): Anthropic's `error{}` carries `code`, `param` and `event_id`; Google's `details` carry an
 * ErrorInfo (`reason` = our code, `metadata.event_id`) and a BadRequest naming the field. Read back as a GatewayError
 * so the same judgement applies; Bedrock's and Cohere's bodies are GatewayErrors with a `message` beside.
 */
function gatewayErrorOfNative(path: string, body: any, status: number): any {
  if (/^(\/[a-z]+)?\/anthropic\//.test(path) && body?.type === 'error') {
    return { is_gateway_error: true, event_id: body.error?.event_id, status_code: status, error: body.error };
  }
  if (/^(\/[a-z]+)?\/genai\//.test(path) && Array.isArray(body?.error?.details)) {
    const details = body.error.details as Array<Record<string, any>>;
    const info = details.find((d) => String(d['@type']).endsWith('ErrorInfo'));
    const badRequest = details.find((d) => String(d['@type']).endsWith('BadRequest'));
    return {
      is_gateway_error: true,
      event_id: info?.metadata?.event_id,
      status_code: status,
      error: { code: info?.reason, param: badRequest?.fieldViolations?.[0]?.field, message: body.error.message },
    };
  }
  return body;
}

export type ProblemKind = 'serverError' | 'notGatewayError' | 'wrongParam';

export interface Judgement {
  problem?: { kind: ProblemKind; text: string };
  /** The GatewayError of a non-2xx answer (read back from a provider shape or a JSON-RPC error). */
  error?: { code: string; type?: string; message: string; param?: string };
}

/**
 * Every answer below 500; every error a GatewayError (`is_gateway_error`, an `event_id`, `status_code` equal to the
 * status) whose code is catalogued; every 400 that names a parameter (all `validation_failed` must) naming one the
 * operation declares (or a query parameter the request sent, blamed for its own value).
 */
export function judgeAnswer(op: Operation, answer: Answer, sentQueryNames: readonly string[] = []): Judgement {
  if (answer.status >= 500 || answer.status === 0)
    return { problem: { kind: 'serverError', text: `${answer.status} ${answer.text.slice(0, 200)}` } };
  if (answer.status < 400) return {};
  let body: any;
  try {
    body = JSON.parse(answer.text);
  } catch {
    body = undefined;
  }
  // The A2A JSON-RPC binding answers a JSON-RPC error whose `data` is the GatewayError.
  if (op.path.endsWith('/jsonrpc') && body?.jsonrpc === '2.0') body = body.error?.data;
  // The MCP endpoint leaves a JSON-RPC object's protocol errors (Accept header, message shape, methods) to the MCP
  // SDK, which answers them as JSON-RPC errors, as MCP clients expect (docs/mcp.md); what it refuses itself is a
  // GatewayError.
  if (/^\/mcp(\/|$)/.test(op.path) && body?.jsonrpc === '2.0' && typeof body.error?.code === 'number') return {};
  body = gatewayErrorOfNative(op.path, body, answer.status);
  const isGatewayError =
    body?.is_gateway_error === true &&
    typeof body.event_id === 'string' &&
    body.status_code === answer.status &&
    typeof body.error?.code === 'string' &&
    body.error.code in ERROR_CODES;
  if (!isGatewayError)
    return { problem: { kind: 'notGatewayError', text: `${answer.status} ${answer.text.slice(0, 200)}` } };
  const error = body.error as NonNullable<Judgement['error']>;
  const param = error.param;
  const mustName = answer.status === 400 && (error.code === 'validation_failed' || param !== undefined);
  const namesSentQuery = param !== undefined && sentQueryNames.includes(param);
  if (mustName && !namesAField(op, param) && !namesAnUnknownField(op, param, error.message) && !namesSentQuery) {
    return { error, problem: { kind: 'wrongParam', text: `param ${JSON.stringify(param)} (${error.message})` } };
  }
  return { error };
}

/**
 * The resources the operations' path parameters address (an agent on `agentCardUrl`, keys, a team, a customer, a
 * role, a user, a rule, an override), created through the API with the admin's credentials.
 */
export async function createFixtures(
  gw: TestApp,
  agentCardUrl: string,
  adminHeaders: Record<string, string>,
): Promise<Fixtures> {
  const http = gw.http.withHeaders(adminHeaders);
  const agentRes = await http.post('/api/agents', {
    name: 'sweep',
    agent_card_url: agentCardUrl,
    allow_by_default: true,
  });
  expect(agentRes.status, agentRes.text).toBe(201);
  const vk = await http.post('/api/governance/virtual-keys', { name: 'sweep-data-plane' });
  const other = await http.post('/api/governance/virtual-keys', {
    name: 'sweep-target',
    budgets: [{ max_limit: 1, reset_duration: '1d' }],
  });
  const team = await http.post('/api/governance/teams', { name: 'sweep-team' });
  const customer = await http.post('/api/governance/customers', { name: 'sweep-customer' });
  const modelConfig = await http.post('/api/governance/model-configs', { model_name: 'sweep-model' });
  const role = await http.post('/api/governance/rbac/roles', {
    name: 'sweep-role',
    permissions: ['AgentGateway:View'],
  });
  const user = await http.post('/api/governance/users', {
    name: 'Sweep',
    email: 'user@example.com',
    role_id: role.body.id,
  });
  const mk = await http.post('/api/management-keys', { name: 'sweep-key', scopes: [] });
  const rule = await http.post('/api/governance/routing-rules', {
    name: 'sweep-rule',
    cel_expression: 'false',
    targets: [{ provider: 'openai', weight: 1 }],
  });
  const override = await http.post('/api/governance/pricing-overrides', {
    name: 'sweep-override',
    scope_kind: 'global',
    match_type: 'exact',
    pattern: 'sweep-model',
    request_types: ['chat_completion'],
    patch: { input_cost_per_token: 0 },
  });
  for (const res of [vk, other, role, user, mk, team, customer, modelConfig, rule, override]) {
    expect(res.status, res.text).toBe(201);
  }
  return {
    agentName: 'sweep',
    agentCardUrl: agentCardUrl,
    virtualKey: vk.body.virtual_key.value,
    otherVkId: other.body.virtual_key.id,
    roleId: role.body.id,
    userId: user.body.id,
    managementKeyId: mk.body.id,
    teamId: team.body.team.id,
    customerId: customer.body.customer.id,
    budgetId: other.body.virtual_key.budgets[0].id,
    modelConfigId: modelConfig.body.model_config.id,
    routingRuleId: rule.body.rule.id,
    pricingOverrideId: override.body.pricing_override.id,
  };
}
