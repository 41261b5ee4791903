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
  return (target: object, propertyName: string | symbol) => {
    registerDecorator({
      name: 'isStringList',
      target: target.constructor,
      propertyName: propertyName as string,
      options: validationOptions,
      validator: {
        validate: (value: unknown) => stringListProblem(value, bounds) === undefined,
        defaultMessage: (args?: ValidationArguments) =>
          `${args?.property ?? String(propertyName)}${stringListProblem(args?.value, bounds) ?? ' is invalid'}`,
      },
    });
  };
}
