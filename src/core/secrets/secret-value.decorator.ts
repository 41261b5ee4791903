import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import type { ValidationOptions } from 'class-validator';
import { ValidatesWith } from '../validation/field.decorators.js';
import { DEFAULT_MAX_SECRET_LENGTH } from '../validation/input-limits.js';
import { REDACTED, SECRET_TYPES, SecretInputError, parseSecretInput } from './secret-value.js';

/** Output form B, for response DTOs: `@ApiProperty({ type: SecretValueDto })`. */
@ApiSchema({ name: 'SecretValue' })
export class SecretValueDto {
  @ApiProperty({
    type: String,
    description: `The value. Secret fields answer "${REDACTED}"; sending "${REDACTED}" back on an update keeps the stored secret.`,
    example: REDACTED,
  })
  value: string;

  @ApiProperty({
    type: String,
    description: 'Source reference: `env.VAR_NAME` or `vault.<mount>/<path>[#field]`. Empty for plain-text values.',
    example: 'env.OPENAI_API_KEY',
  })
  ref: string;

  @ApiProperty({ enum: SECRET_TYPES, enumName: 'SecretValueType', description: 'Source type of the value.' })
  type: 'plain_text' | 'env' | 'vault';
}

export interface IsSecretValueOptions extends ValidationOptions {
  /** The property is a map of header names to SecretValues instead of one SecretValue. */
  map?: boolean;
  /** With `map`: the map must have at least one entry (default true). */
  nonEmpty?: boolean;
  /** Longest plain-text value or reference (default DEFAULT_MAX_SECRET_LENGTH; PEM bundles need more). */
  maxLength?: number;
}

const SYNTAX = 'plain text, env.VAR_NAME, vault.<mount>/<path>[#field] or { value, ref, type }';
/** Most entries of a header map. */
export const MAX_SECRET_MAP_ENTRIES = 64;
/** An HTTP header name (RFC 9110 token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Characters a header value may not hold (what undici refuses when the request is made). */
const HEADER_VALUE_FORBIDDEN = /[^\t\x20-\x7e\x80-\xff]/;

/** Why one SecretValue input is invalid, or undefined. */
function oneProblem(value: unknown, maxLength: number, headerValue: boolean): string | undefined {
  const texts = typeof value === 'string' ? [value] : value && typeof value === 'object' ? Object.values(value) : [];
  if (texts.some((t) => typeof t === 'string' && t.length > maxLength))
    return `must be at most ${maxLength} characters`;
  try {
    const parsed = parseSecretInput(value);
    if (headerValue && parsed.plain !== undefined && HEADER_VALUE_FORBIDDEN.test(parsed.plain)) {
      return 'must be a valid HTTP header value (no control characters or line breaks)';
    }
    return undefined;
  } catch (err) {
    if (err instanceof SecretInputError) return err.message;
    throw err;
  }
}

/**
 * The reason `value` is not a valid SecretValue (or map of them), or undefined when it is. A map entry's reason
 * starts with its key (`.X-Api-Key must be …`), so the global pipe names the entry (`headers.X-Api-Key`).
 */
export function secretValueProblem(value: unknown, options: IsSecretValueOptions = {}): string | undefined {
  const maxLength = options.maxLength ?? DEFAULT_MAX_SECRET_LENGTH;
  const problem = (v: unknown) => oneProblem(v, maxLength, options.map === true);
  if (!options.map) {
    const reason = problem(value);
    return reason && ` must be a SecretValue (${SYNTAX}): ${reason}`;
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    return ' must be an object mapping header names to SecretValues';
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0 && options.nonEmpty !== false) return ' must have at least one entry';
  if (entries.length > MAX_SECRET_MAP_ENTRIES) return ` must have at most ${MAX_SECRET_MAP_ENTRIES} entries`;
  for (const [key, v] of entries) {
    // A name that is not a header token is refused where the headers are sealed, naming the entry.
    if (!HEADER_NAME.test(key)) continue;
    const reason = problem(v);
    if (reason) return `.${key} must be a SecretValue (${SYNTAX}): ${reason}`;
  }
  return undefined;
}

/**
 * Validates a SecretValue input (form A string or form B object). The message starts with the property name (and a
 * map entry's key) so the global pipe's `error.param` names the field (`runtime_auth.oauth.client_secret`,
 * `runtime_auth.headers.X-Api-Key`). It never repeats the value.
 */
export function IsSecretValue(options: IsSecretValueOptions = {}): PropertyDecorator {
  const { map, nonEmpty, maxLength, ...validationOptions } = options;
  const rules = { map, nonEmpty, maxLength };
  return ValidatesWith('isSecretValue', (value) => secretValueProblem(value, rules), validationOptions);
}

/** Input form A, documented with its length bound. */
function formASchema(maxLength: number) {
  return {
    type: 'string',
    minLength: 1,
    maxLength,
    description: `Input form A: plain text, \`env.VAR_NAME\`, or \`vault.<mount>/<path>[#field]\`; "${REDACTED}" keeps the stored secret.`,
  };
}

/** Input form B, documented with its length bound. */
function formBSchema(maxLength: number) {
  return {
    type: 'object',
    title: 'SecretValueInput',
    description: 'Form B: `type` env or vault takes `ref`; plain_text takes `value`.',
    properties: {
      value: {
        type: 'string',
        maxLength,
        description: `Plain-text value (type plain_text); "${REDACTED}" keeps the stored secret.`,
      },
      ref: {
        type: 'string',
        maxLength,
        description: '`env.VAR_NAME` or `vault.<mount>/<path>[#field]` (type env or vault).',
      },
      type: { type: 'string', enum: [...SECRET_TYPES], description: 'Source type of the value.' },
    },
    additionalProperties: false,
  };
}

export interface ApiSecretValuePropertyOptions {
  description: string;
  required?: boolean;
  map?: boolean;
  example?: unknown;
  /** Longest value or reference (default DEFAULT_MAX_SECRET_LENGTH). */
  maxLength?: number;
}

/** Documents a SecretValue input property as `oneOf: [string, SecretValueInput]` (or a map of them). */
export function ApiSecretValueProperty(options: ApiSecretValuePropertyOptions): PropertyDecorator {
  const Decorator = options.required === false ? ApiPropertyOptional : ApiProperty;
  const maxLength = options.maxLength ?? DEFAULT_MAX_SECRET_LENGTH;
  const oneOf = [formASchema(maxLength), formBSchema(maxLength)];
  if (options.map) {
    return Decorator({
      type: 'object',
      description: options.description,
      additionalProperties: { oneOf },
      maxProperties: MAX_SECRET_MAP_ENTRIES,
      example: options.example,
    });
  }
  return Decorator({ description: options.description, oneOf, example: options.example });
}

/** Both at once: validation and OpenAPI documentation of a SecretValue input property. */
export function SecretValueProperty(
  options: ApiSecretValuePropertyOptions & Omit<IsSecretValueOptions, 'map' | 'maxLength'>,
): PropertyDecorator {
  const { description, required, map, example, maxLength, ...validation } = options;
  return applyDecorators(
    ApiSecretValueProperty({ description, required, map, example, maxLength }),
    IsSecretValue({ ...validation, map, maxLength }),
  );
}
