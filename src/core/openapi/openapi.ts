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
      { type: 'apiKey', in: 'header', name: 'x-api-key', description: 'Virtual key (inference only)' },
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
        name: 'X-Gateway-Setup-Token',
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
