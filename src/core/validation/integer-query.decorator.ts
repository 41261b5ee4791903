import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsInt, IsNumber, Max, Min } from 'class-validator';
import { IsOptionalNonNull } from './field.decorators.js';

/** Plain decimal digits with an optional minus: no `0x10`, `1e3`, `+5`, ` 5` or `5.0`. */
const DECIMAL_INTEGER = /^-?\d{1,16}$/;

export interface IntegerQueryOptions {
  minimum: number;
  /** Keep it within Number.MAX_SAFE_INTEGER and the column type (int4 or int8) the value reaches. */
  maximum: number;
  default?: number;
  description: string;
}

/**
 * An optional integer query parameter, documented as `type: integer` with its bounds. Only plain decimal integers
 * are read as numbers (`Number()` would accept hex, exponents, signs and spaces); anything else stays a string and
 * fails `IsInt`.
 */
export function IntegerQuery(options: IntegerQueryOptions): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({
      type: 'integer',
      minimum: options.minimum,
      maximum: options.maximum,
      default: options.default,
      description: options.description,
    }),
    IsOptionalNonNull(),
    Transform(({ value }: { value: unknown }) =>
      typeof value === 'string' && DECIMAL_INTEGER.test(value) ? Number(value) : value,
    ),
    IsInt({ message: '$property must be an integer in decimal digits' }),
    Min(options.minimum),
    Max(options.maximum),
  );
}

/** Plain decimal numbers: digits with an optional fraction and minus, no exponent, hex or spaces. */
const DECIMAL_NUMBER = /^-?\d{1,16}(\.\d{1,16})?$/;

/** An optional decimal number query parameter (`type: number`) with its bounds. */
export function NumberQuery(options: Omit<IntegerQueryOptions, 'default'>): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({
      type: 'number',
      minimum: options.minimum,
      maximum: options.maximum,
      description: options.description,
    }),
    IsOptionalNonNull(),
    Transform(({ value }: { value: unknown }) =>
      typeof value === 'string' && DECIMAL_NUMBER.test(value) ? Number(value) : value,
    ),
    IsNumber({ allowNaN: false, allowInfinity: false }, { message: '$property must be a number in decimal digits' }),
    Min(options.minimum),
    Max(options.maximum),
  );
}

/** An optional boolean query parameter: exactly `true` or `false`. */
export function BooleanQuery(description: string): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ type: 'boolean', description }),
    IsOptionalNonNull(),
    Transform(({ value }: { value: unknown }) => (value === 'true' ? true : value === 'false' ? false : value)),
    IsBoolean({ message: '$property must be true or false' }),
  );
}
