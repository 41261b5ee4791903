import { API_KEY_HEADER, SETUP_TOKEN_HEADER } from '../auth/credential-headers.js';
import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, getSchemaPath, type OpenAPIObject } from '@nestjs/swagger';
import { errorDescription } from '../errors/api-errors.decorator.js';
import { ErrorExtraFieldsDto, ErrorFieldDto, GatewayErrorDto } from '../errors/gateway-error.dto.js';
import { API_VERSION } from '../version.js';

const ERROR_REF = { $ref: getSchemaPath(GatewayErrorDto) };
const MANAGEMENT_SECURITY = ['BasicAuth', 'ManagementBearerAuth', 'SetupToken'];

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, sortKeys((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

/** Every operation lists its error responses with the GatewayError schema. */
function addDefaultErrors(document: OpenAPIObject): void {
  for (const pathItem of Object.values(document.paths)) {
    for (const operation of Object.values(
      pathItem as Record<string, { responses?: Record<string, unknown>; security?: Array<Record<string, unknown>> }>,
    )) {
      if (!operation || typeof operation !== 'object' || !operation.responses) continue;
      const isManagement = (operation.security ?? []).some((s) => MANAGEMENT_SECURITY.some((name) => name in s));
      const isVirtualKey = (operation.security ?? []).some((s) => 'BearerAuth' in s || 'ApiKeyAuth' in s);
      const statuses = [400, 500, ...(isManagement || isVirtualKey ? [401, 403] : [])];
      for (const status of statuses) {
        operation.responses[String(status)] ??= {
          description: errorDescription(status),
          content: { 'application/json': { schema: ERROR_REF } },
        };
      }
    }
  }
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/**
 * OpenAPI requires every `operationId` to be unique, and code generators refuse a document where one repeats. One
 * controller serves several paths (a provider format under each framework prefix, GenAI's `v1` and `v1beta`): the
 * shortest path keeps the id the code gives, each other path gets it suffixed with its own path in camel case
 * (`anthropicFormatListModels` on `/anthropic/v1/models`, `anthropicFormatListModels_litellmAnthropicV1Models` on
 * `/litellm/anthropic/v1/models`), so every id is stable and none moves when a path is added.
 */
function uniqueOperationIds(document: OpenAPIObject): void {
  const byId = new Map<string, Array<{ path: string; operation: { operationId?: string } }>>();
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of HTTP_METHODS) {
      const operation = (item as Record<string, { operationId?: string } | undefined>)[method];
      if (!operation?.operationId) continue;
      const uses = byId.get(operation.operationId) ?? [];
      uses.push({ path, operation });
      byId.set(operation.operationId, uses);
    }
  }
  for (const [id, uses] of byId) {
    if (uses.length < 2) continue;
    uses.sort((a, b) => a.path.length - b.path.length || a.path.localeCompare(b.path));
    for (const { path, operation } of uses.slice(1)) {
      const words = path.split(/[^A-Za-z0-9]+/).filter(Boolean);
      const camel = words.map((w, i) => (i === 0 ? w : w[0]!.toUpperCase() + w.slice(1))).join('');
      operation.operationId = `${id}_${camel}`;
    }
  }
}

/**
 * Declares every `{name}` of a path template that its operations do not: a wildcard route (`rest/*`, which the
 * swagger module writes as `{path}`) has no `@Param` to document it, and OpenAPI requires each template variable to
 * be a declared path parameter.
 */
function declarePathParameters(document: OpenAPIObject): void {
  for (const [path, pathItem] of Object.entries(document.paths)) {
    const names = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
    for (const method of HTTP_METHODS) {
      const operation = (pathItem as Record<string, { parameters?: Array<{ name: string; in: string }> }>)[method];
      if (!operation) continue;
      const parameters = (operation.parameters ??= []);
      for (const name of names) {
        if (parameters.some((p) => p.in === 'path' && p.name === name)) continue;
        parameters.push({
          name,
          in: 'path',
          required: true,
          schema: { type: 'string' },
          description: name === 'path' ? 'The rest of the URL path, slashes included' : `Path parameter ${name}`,
        } as { name: string; in: string });
      }
    }
  }
}

/** Builds the OpenAPI document from the running application, sorted so the committed file diffs cleanly. */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('AI Gateway')
    .setDescription('Unified inference, agent and management API of the AI gateway')
    .setVersion(API_VERSION)
    .addBearerAuth(
      { type: 'http', scheme: 'bearer', description: 'Virtual key or provider key (inference and agent data plane)' },
      'BearerAuth',
    )
    .addBasicAuth(
      { type: 'http', scheme: 'basic', description: 'Admin username and password (management only)' },
      'BasicAuth',
    )
    .addApiKey(
      { type: 'apiKey', in: 'header', name: API_KEY_HEADER, description: 'Virtual key (inference only)' },
      'ApiKeyAuth',
    )
    .addBearerAuth(
      {
        type: 'http',
        scheme: 'bearer',
        description: 'Management API key, dashboard session token, or base64 of admin-username:admin-password',
      },
      'ManagementBearerAuth',
    )
    .addApiKey(
      {
        type: 'apiKey',
        in: 'header',
        name: SETUP_TOKEN_HEADER.replace(/(^|-)[a-z]/g, (c) => c.toUpperCase()), // X-Gateway-Setup-Token
        description: 'Setup token (open-source setup lock)',
      },
      'SetupToken',
    )
    .build();
  const document = SwaggerModule.createDocument(app, config, {
    extraModels: [GatewayErrorDto, ErrorFieldDto, ErrorExtraFieldsDto],
    operationIdFactory: (controllerKey, methodKey) => `${controllerKey.replace(/Controller$/, '')}_${methodKey}`,
  });
  addDefaultErrors(document);
  declarePathParameters(document);
  uniqueOperationIds(document);
  return sortKeys(document) as OpenAPIObject;
}

/**
 * Serves the document at /openapi.json and a UI at /docs. The document is built on the first request for it, not at
 * start: scanning every controller takes about a quarter of a second of CPU, which every start (and every test app)
 * paid for a document most gateways never serve.
 */
export function serveOpenApi(app: INestApplication): void {
  SwaggerModule.setup('docs', app, () => buildOpenApiDocument(app), { jsonDocumentUrl: 'openapi.json', raw: ['json'] });
}
