import { registerDecorator, ValidateIf, type ValidationArguments, type ValidationOptions } from 'class-validator';
import { DEFAULT_MAX_ITEM_LENGTH, DEFAULT_MAX_LIST_ITEMS } from './input-limits.js';

/**
 * An optional field: absent is fine, `null` is not (it is validated, fails and is reported as "must not be null").
 * Use it instead of class-validator's IsOptional, which lets `null` through to services and NOT NULL columns.
 */
export function IsOptionalNonNull(options?: ValidationOptions): PropertyDecorator {
  return ValidateIf((_object: object, value: unknown) => value !== undefined, options);
}

/** A field the contract declares nullable: absent or `null` (which clears the stored value) skip its other checks. */
export function IsNullable(options?: ValidationOptions): PropertyDecorator {
  return ValidateIf((_object: object, value: unknown) => value !== undefined && value !== null, options);
}

/**
 * A property validator from a function that says what is wrong with a value (undefined when nothing is). The problem
 * is appended to the property name, so it may start with an item or entry (`[2] must be …`, `.X-Key must be …`),
 * which the global pipe turns into `error.param` naming that item.
 */
export function ValidatesWith(
  name: string,
  problemOf: (value: unknown) => string | undefined,
  options: ValidationOptions = {},
): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    registerDecorator({
      name,
      target: target.constructor,
      propertyName: propertyName as string,
      options,
      validator: {
        validate: (value: unknown) => problemOf(value) === undefined,
        defaultMessage: (args?: ValidationArguments) =>
          `${args?.property ?? String(propertyName)}${problemOf(args?.value) ?? ' is invalid'}`,
      },
    });
  };
}

export interface StringListOptions extends ValidationOptions {
  /** Most items (default DEFAULT_MAX_LIST_ITEMS). */
  maxItems?: number;
  /** Longest item (default DEFAULT_MAX_ITEM_LENGTH). */
  maxLength?: number;
  /** Refuse empty and blank items (default true). */
  nonEmpty?: boolean;
}

/** Why `value` is not a bounded list of strings, naming the item at fault (`[2] must be …`), or undefined. */
export function stringListProblem(value: unknown, options: StringListOptions = {}): string | undefined {
  const { maxItems = DEFAULT_MAX_LIST_ITEMS, maxLength = DEFAULT_MAX_ITEM_LENGTH, nonEmpty = true } = options;
  if (!Array.isArray(value)) return ' must be an array of strings';
  if (value.length > maxItems) return ` must have at most ${maxItems} items`;
  for (let i = 0; i < value.length; i++) {
    const item: unknown = value[i];
    if (typeof item !== 'string') return `[${i}] must be a ${nonEmpty ? 'nonempty ' : ''}string`;
    if (nonEmpty && item.trim() === '') return `[${i}] must be a nonempty string`;
    if (item.length > maxLength) return `[${i}] must be at most ${maxLength} characters`;
  }
  return undefined;
}

/**
 * A list of strings with bounded size and item length. Its message names the item (`scopes[2] must be a nonempty
 * string`), which the global pipe turns into `error.param: scopes[2]`.
 */
export function IsStringList(options: StringListOptions = {}): PropertyDecorator {
  const { maxItems, maxLength, nonEmpty, ...validationOptions } = options;
  const bounds = { maxItems, maxLength, nonEmpty };
  return ValidatesWith('isStringList', (value) => stringListProblem(value, bounds), validationOptions);
}
