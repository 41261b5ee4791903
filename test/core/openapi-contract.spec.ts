import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { getSchemaPath, type OpenAPIObject } from '@nestjs/swagger';
import { Validator } from '@seriousme/openapi-schema-validator';
import { beforeAll, describe, expect, it } from 'vitest';
import { createOfflineApp } from '../../src/cli/cli-app.js';
import { buildOpenApiDocument } from '../../src/core/openapi/openapi.js';

type Schema = {
  $ref?: string;
  allOf?: Schema[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
};

// A dashboard's generated client shows these names, so they are the contract's (gateway-api.md).
const CONTRACT_SCHEMAS = [
  'GatewayError',
  'ErrorField',
  'ErrorExtraFields',
  'RoutingInfo',
  'AgentCreateRequest',
  'AgentRegistrationView',
  'AgentUpstreamAuth',
  'AgentUpstreamOAuthConfig',
  'AgentUpstreamTLSConfig',
  'SecretValue',
  'Pagination',
  'SimpleMessageResponse',
  'VirtualKeyOperationResponse',
];

const ERROR_EXTRA_FIELDS = [
  'routing_info',
  'provider',
  'original_model_requested',
  'resolved_model_used',
  'request_type',
  'mcp_request_type',
  'a2a_request_type',
  'a2a_agent_name',
  'error_type',
  'retry_after_ms',
  'raw_request',
  'raw_response',
  'converted_request_type',
  'dropped_compat_plugin_params',
  'latency',
  'key_statuses',
  'mcp_auth_required',
  'billed_usage',
];

const ROUTING_INFO_FIELDS = [
  'provider',
  'model',
  'key',
  'resolved_key_alias',
  'is_fallback',
  'primary_provider',
  'primary_model',
  'requested_provider',
  'requested_model',
  'server_side_fallback_model',
  // Beyond the contract (issue 11 §4): the routing rule that chose the provider and model.
  'routing_rule_id',
  'routing_rule_name',
];

/** Every `$ref` in the document, with the JSON path it sits at (for a readable failure). */
function collectRefs(value: unknown, path = '#', out: Array<{ path: string; ref: string }> = []) {
  if (Array.isArray(value)) {
    value.forEach((item, i) => collectRefs(item, `${path}/${i}`, out));
  } else if (value && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      if (key === '$ref' && typeof child === 'string') out.push({ path, ref: child });
      else collectRefs(child, `${path}/${key}`, out);
    }
  }
  return out;
}

/** The schema name a property points at, directly or through the `allOf` swagger adds around a described ref. */
function refName(schema: Schema | undefined): string | undefined {
  const ref = schema?.$ref ?? schema?.allOf?.[0]?.$ref ?? schema?.items?.$ref;
  return ref?.replace('#/components/schemas/', '');
}

/** Source files that declare OpenAPI models (any file using the property or schema decorators). */
function modelFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => join(dir, file))
    .filter((file) =>
      /@Api(Property|PropertyOptional|Schema)\b|SecretValueProperty\(/.test(readFileSync(file, 'utf8')),
    );
}

describe('OpenAPI schema names follow the contract', () => {
  let document: OpenAPIObject;
  let schemas: Record<string, Schema>;

  beforeAll(async () => {
    // Exactly what `npm run openapi` does.
    const { app } = await createOfflineApp();
    try {
      document = buildOpenApiDocument(app);
    } finally {
      await app.close();
    }
    schemas = document.components?.schemas ?? {};
  });

  it('publishes every schema the contract names', () => {
    expect(Object.keys(schemas)).toEqual(expect.arrayContaining(CONTRACT_SCHEMAS));
  });

  it('publishes no schema named after a TypeScript DTO class', () => {
    expect(Object.keys(schemas).filter((name) => /dto$/i.test(name))).toEqual([]);
  });

  it('resolves every $ref to a published schema', () => {
    const refs = collectRefs(document);
    expect(refs.length).toBeGreaterThan(50);
    const dangling = refs.filter(({ ref }) => !(ref.replace('#/components/schemas/', '') in schemas));
    expect(dangling).toEqual([]);
    expect(refs.every(({ ref }) => ref.startsWith('#/components/schemas/'))).toBe(true);
  });

  it('maps each published name to exactly one class', async () => {
    const byName = new Map<string, string[]>();
    for (const file of modelFiles(join(import.meta.dirname, '../../src'))) {
      const module = (await import(file)) as Record<string, unknown>;
      for (const [exported, value] of Object.entries(module)) {
        if (typeof value !== 'function' || !Reflect.hasMetadata('swagger/apiModelPropertiesArray', value.prototype)) {
          continue;
        }
        const name = getSchemaPath(value).replace('#/components/schemas/', '');
        byName.set(name, [...(byName.get(name) ?? []), `${relative(process.cwd(), file)}:${exported}`]);
      }
    }
    const published = [...byName].filter(([name]) => name in schemas);
    expect(published.length).toBeGreaterThan(40);
    expect(published.filter(([, classes]) => classes.length > 1)).toEqual([]);
  });

  it('GatewayError nests ErrorField and ErrorExtraFields, and error responses use it', () => {
    expect(refName(schemas.GatewayError?.properties?.error)).toBe('ErrorField');
    expect(refName(schemas.GatewayError?.properties?.extra_fields)).toBe('ErrorExtraFields');
    expect(schemas.GatewayError?.required?.sort()).toEqual(
      ['error', 'event_id', 'extra_fields', 'is_gateway_error', 'status_code', 'type'].sort(),
    );
    const health = document.paths['/health']?.get?.responses['500'] as { content: Record<string, { schema: Schema }> };
    expect(refName(health.content['application/json']?.schema)).toBe('GatewayError');
  });

  it('ErrorExtraFields lists the contract fields, all optional, with routing_info a RoutingInfo', () => {
    const extra = schemas.ErrorExtraFields;
    expect(Object.keys(extra?.properties ?? {}).sort()).toEqual([...ERROR_EXTRA_FIELDS].sort());
    expect(extra?.required).toBeUndefined();
    expect(refName(extra?.properties?.routing_info)).toBe('RoutingInfo');
    expect(refName(extra?.properties?.key_statuses)).toBe('KeyStatus');
    expect(refName(extra?.properties?.billed_usage)).toBe('Usage');
    expect(refName(schemas.KeyStatus?.properties?.error)).toBe('GatewayError');
  });

  it('RoutingInfo carries the contract fields', () => {
    const routing = schemas.RoutingInfo;
    expect(Object.keys(routing?.properties ?? {}).sort()).toEqual([...ROUTING_INFO_FIELDS].sort());
    expect(refName(routing?.properties?.resolved_key_alias)).toBe('ResolvedKeyAlias');
    expect(schemas.ResolvedKeyAlias?.required).toEqual(['model_id']);
    expect(refName(routing?.properties?.provider)).toBe('ProviderId');
  });

  it('agent registration schemas nest the contract names', () => {
    expect(refName(schemas.AgentCreateRequest?.properties?.discovery_auth)).toBe('AgentUpstreamAuth');
    expect(refName(schemas.AgentCreateRequest?.properties?.runtime_auth)).toBe('AgentUpstreamAuth');
    expect(refName(schemas.AgentUpstreamAuth?.properties?.oauth)).toBe('AgentUpstreamOAuthConfig');
    expect(refName(schemas.AgentUpstreamAuth?.properties?.tls)).toBe('AgentUpstreamTLSConfig');
    expect(schemas.AgentUpstreamOAuthConfig?.required?.sort()).toEqual(['client_id', 'client_secret']);
    const created = document.paths['/api/agents']?.post?.responses['201'] as {
      content: Record<string, { schema: Schema }>;
    };
    expect(refName(created.content['application/json']?.schema)).toBe('AgentRegistrationView');
  });

  it('SecretValue, Pagination and the message responses have the contract fields', () => {
    expect(Object.keys(schemas.SecretValue?.properties ?? {}).sort()).toEqual(['ref', 'type', 'value']);
    expect(Object.keys(schemas.Pagination?.properties ?? {}).sort()).toEqual(
      ['limit', 'offset', 'order', 'sort_by', 'total_count'].sort(),
    );
    expect(Object.keys(schemas.SimpleMessageResponse?.properties ?? {})).toEqual(['message']);
    expect(schemas.VirtualKeyOperationResponse?.required?.sort()).toEqual(['message', 'virtual_key']);
    const rotated = document.paths['/api/governance/virtual-keys/{vk_id}/rotate']?.post?.responses['200'] as {
      content: Record<string, { schema: Schema }>;
    };
    expect(refName(rotated.content['application/json']?.schema)).toBe('VirtualKeyOperationResponse');
  });
});

describe('the committed OpenAPI document (openapi/openapi.json)', () => {
  const committed = JSON.parse(readFileSync(join(import.meta.dirname, '../../openapi/openapi.json'), 'utf8')) as {
    paths: Record<string, Record<string, { parameters?: Array<{ name: string; in: string; schema?: any }> }>>;
    components: { schemas: Record<string, { properties?: Record<string, { type?: string }> }> };
  };
  const operations = Object.entries(committed.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ path, method, op })),
  );

  it('is a valid OpenAPI 3 document (schema validator)', async () => {
    const result = await new Validator().validate(committed);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('declares every path template variable as a path parameter of each operation', () => {
    const missing = operations.flatMap(({ path, method, op }) =>
      [...path.matchAll(/\{([^}]+)\}/g)]
        .map((m) => m[1]!)
        .filter((name) => !(op.parameters ?? []).some((p) => p.in === 'path' && p.name === name))
        .map((name) => `${method.toUpperCase()} ${path}: {${name}}`),
    );
    expect(operations.length).toBeGreaterThan(40);
    expect(missing).toEqual([]);
  });

  it('gives every operation an operationId of its own (generators refuse a repeated one)', () => {
    const ids = operations.map(({ op }) => (op as { operationId?: string }).operationId);
    expect(ids.filter((id) => !id)).toEqual([]);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });

  it('types limit and offset as bounded integers on every list', () => {
    const paging = operations.flatMap(({ op }) =>
      (op.parameters ?? []).filter((p) => p.in === 'query' && (p.name === 'limit' || p.name === 'offset')),
    );
    expect(paging.length).toBeGreaterThanOrEqual(8);
    for (const p of paging) {
      expect(p.schema, p.name).toMatchObject({
        type: 'integer',
        minimum: expect.any(Number),
        maximum: expect.any(Number),
      });
      expect(p.schema.maximum).toBeLessThanOrEqual(Number.MAX_SAFE_INTEGER);
    }
  });

  it('types team_id as a nullable string wherever it appears', () => {
    const teamIds = Object.entries(committed.components.schemas)
      .filter(([, schema]) => schema.properties?.team_id)
      .map(([name, schema]) => [name, schema.properties!.team_id!.type]);
    expect(teamIds.length).toBeGreaterThanOrEqual(4);
    expect(teamIds.filter(([, type]) => type !== 'string')).toEqual([]);
  });
});
