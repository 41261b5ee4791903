import { applyDecorators } from '@nestjs/common';
import { FASTIFY_ROUTE_CONFIG_METADATA } from '@nestjs/platform-fastify/constants.js';
import { ApiConsumes } from '@nestjs/swagger';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { GatewayException } from '../errors/gateway.exception.js';

/** Key of a route's declared request media types inside Fastify's route `config`. */
export const MEDIA_TYPES_CONFIG_KEY = 'gatewayMediaTypes';

/** What every body-carrying route accepts unless it declares otherwise. */
export const JSON_MEDIA_TYPES = ['application/json', 'application/*+json'] as const;

/**
 * Declares the request media types a route accepts instead of the JSON default (exact types such as `text/plain`,
 * compared without parameters). A route that still takes JSON lists `application/json` too. Bodies of a declared
 * `text/*` type reach the handler as a string, others as a Buffer.
 */
export function AcceptsBody(...mediaTypes: [string, ...string[]]): MethodDecorator {
  const declared = mediaTypes.map((t) => t.toLowerCase());
  const declare: MethodDecorator = (_target, _key, descriptor) => {
    const handler = descriptor.value as object;
    const existing = (Reflect.getMetadata(FASTIFY_ROUTE_CONFIG_METADATA, handler) ?? {}) as Record<string, unknown>;
    Reflect.defineMetadata(FASTIFY_ROUTE_CONFIG_METADATA, { ...existing, [MEDIA_TYPES_CONFIG_KEY]: declared }, handler);
    return descriptor;
  };
  return applyDecorators(declare, ApiConsumes(...declared));
}

/** The media types the matched route declared, or undefined for the JSON default. */
export function declaredMediaTypes(request: FastifyRequest): readonly string[] | undefined {
  const config = request.routeOptions.config as unknown as Record<string, unknown> | undefined;
  return config?.[MEDIA_TYPES_CONFIG_KEY] as string[] | undefined;
}

/** `text/plain; charset=utf-8` → `text/plain`. */
export function mediaTypeOf(request: FastifyRequest): string {
  const header = request.headers['content-type'];
  return (header ?? '').split(';', 1)[0]!.trim().toLowerCase();
}

/** Whether `type` (no parameters) is one of `accepted`; `application/*+json` stands for every `+json` type. */
export function acceptsMediaType(accepted: readonly string[], type: string): boolean {
  return accepted.includes(type) || (accepted.includes('application/*+json') && type.endsWith('+json'));
}

/** The 415 answer; names what the route accepts, never the type the caller sent. */
export function unsupportedMediaType(accepted: readonly string[] = JSON_MEDIA_TYPES): GatewayException {
  return new GatewayException(
    415,
    'unsupported_media_type',
    `Unsupported request Content-Type; this route accepts ${accepted.join(', ')}`,
  );
}

/**
 * Replaces Fastify's catch-all handling of non-JSON bodies (its default `text/plain` parser handed JSON sent as text
 * to the handler as a string): a body whose type the route did not declare is a 415 GatewayError. An empty body is no
 * body whatever its declared type, so body-less requests carrying a Content-Type header keep working.
 */
export function registerMediaTypeGate(fastify: FastifyInstance): void {
  fastify.addContentTypeParser('*', { parseAs: 'buffer' }, (request, body: Buffer, done) => {
    // No route matched (the 404 comes next) or nothing was sent: there is no body to judge.
    if (request.is404 || body.length === 0) return done(null, undefined);
    const type = mediaTypeOf(request);
    const declared = declaredMediaTypes(request);
    if (!declared || !acceptsMediaType(declared, type)) return done(unsupportedMediaType(declared), undefined);
    done(null, type.startsWith('text/') ? body.toString('utf8') : body);
  });
}
