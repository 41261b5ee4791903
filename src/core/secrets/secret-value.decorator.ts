import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { registerDecorator, type ValidationArguments, type ValidationOptions } from 'class-validator';
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
  /** The property is a map of names (header names) to SecretValues instead of one SecretValue. */
  map?: boolean;
  /** With `map`: the map must have at least one entry (default true). */
  nonEmpty?: boolean;
}

const SYNTAX = 'plain text, env.VAR_NAME, vault.<mount>/<path>[#field] or { value, ref, type }';

/** The reason `value` is not a valid SecretValue (or map of them), or undefined when it is. */
export function secretValueProblem(value: unknown, options: IsSecretValueOptions = {}): string | undefined {
  const one = (v: unknown): string | undefined => {
    try {
      parseSecretInput(v);
      return undefined;
    } catch (err) {
      if (err instanceof SecretInputError) return err.message;
      throw err;
    }
  };
  if (!options.map) return one(value);
  if (!value || typeof value !== 'object' || Array.isArray(value)) return 'must be an object mapping names to secrets';
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0 && options.nonEmpty !== false) return 'must have at least one entry';
  for (const [key, v] of entries) {
    const problem = one(v);
    if (problem) return `entry "${key}" ${problem}`;
  }
  return undefined;
}

/**
 * Validates a SecretValue input (form A string or form B object). The message starts with the property name so
 * the global pipe's `error.param` and message name the field (`runtime_auth.oauth.client_secret`). It never
 * repeats the value.
 */
export function IsSecretValue(options: IsSecretValueOptions = {}): PropertyDecorator {
  const { map, nonEmpty, ...validationOptions } = options;
  return (target: object, propertyName: string | symbol) => {
    registerDecorator({
      name: 'isSecretValue',
      target: target.constructor,
      propertyName: propertyName as string,
      options: validationOptions,
      validator: {
        validate: (value: unknown) => secretValueProblem(value, { map, nonEmpty }) === undefined,
        defaultMessage: (args?: ValidationArguments) => {
          const property = args?.property ?? String(propertyName);
          const problem = secretValueProblem(args?.value, { map, nonEmpty }) ?? 'is invalid';
          const what = map ? 'a map of SecretValues' : 'a SecretValue';
          return `${property} must be ${what} (${SYNTAX}): ${problem}`;
        },
      },
    });
  };
}

const FORM_A_SCHEMA = {
  type: 'string',
  minLength: 1,
  description: `Input form A: plain text, \`env.VAR_NAME\`, or \`vault.<mount>/<path>[#field]\`; "${REDACTED}" keeps the stored secret.`,
};
const FORM_B_SCHEMA = {
  type: 'object',
  title: 'SecretValueInput',
  description: 'Form B: `type` env or vault takes `ref`; plain_text takes `value`.',
  properties: {
    value: {
      type: 'string',
      description: `Plain-text value (type plain_text); "${REDACTED}" keeps the stored secret.`,
    },
    ref: { type: 'string', description: '`env.VAR_NAME` or `vault.<mount>/<path>[#field]` (type env or vault).' },
    type: { type: 'string', enum: [...SECRET_TYPES], description: 'Source type of the value.' },
  },
  additionalProperties: false,
};

export interface ApiSecretValuePropertyOptions {
  description: string;
  required?: boolean;
  map?: boolean;
  example?: unknown;
}

/** Documents a SecretValue input property as `oneOf: [string, SecretValueInput]` (or a map of them). */
export function ApiSecretValueProperty(options: ApiSecretValuePropertyOptions): PropertyDecorator {
  const Decorator = options.required === false ? ApiPropertyOptional : ApiProperty;
  const oneOf = [FORM_A_SCHEMA, FORM_B_SCHEMA];
  if (options.map) {
    return Decorator({
      type: 'object',
      description: options.description,
      additionalProperties: { oneOf },
      example: options.example,
    });
  }
  return Decorator({ description: options.description, oneOf, example: options.example });
}

/** Both at once: validation and OpenAPI documentation of a SecretValue input property. */
export function SecretValueProperty(
  options: ApiSecretValuePropertyOptions & Omit<IsSecretValueOptions, 'map'>,
): PropertyDecorator {
  const { description, required, map, example, ...validation } = options;
  return applyDecorators(
    ApiSecretValueProperty({ description, required, map, example }),
    IsSecretValue({ ...validation, map }),
  );
}
