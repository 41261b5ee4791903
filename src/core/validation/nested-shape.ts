import { getMetadataStorage, ValidationTypes } from 'class-validator';

/**
 * class-validator's `@ValidateNested()` validates the elements of an array it is given, so `[]` where one nested
 * object belongs, or `[[]]` where a list of them belongs, passes with nothing checked and reaches the service as an
 * empty "object" (a row of nulls: a 500 from a NOT NULL column). After validation, this walks the nested fields of
 * the validated DTO and names the first one that holds anything but an object where an object belongs.
 */
export function nestedShapeProblem(
  instance: unknown,
  prefix = '',
  depth = 0,
): { param: string; message: string } | undefined {
  if (depth > 32 || !instance || typeof instance !== 'object' || Array.isArray(instance)) return undefined;
  const metadatas = getMetadataStorage().getTargetValidationMetadatas(instance.constructor, '', true, false);
  for (const m of metadatas) {
    if (m.type !== ValidationTypes.NESTED_VALIDATION) continue;
    const value = (instance as Record<string, unknown>)[m.propertyName];
    if (value === undefined || value === null) continue;
    const param = prefix ? `${prefix}.${m.propertyName}` : m.propertyName;
    let items: Array<[string, unknown]> = [[param, value]];
    if (m.each && Array.isArray(value)) items = value.map((v, i): [string, unknown] => [`${param}[${i}]`, v]);
    else if (m.each && value instanceof Map)
      items = [...value].map(([k, v]): [string, unknown] => [`${param}.${k}`, v]);
    for (const [path, item] of items) {
      if (item === null || typeof item !== 'object' || Array.isArray(item)) {
        return { param: path, message: `${path} must be an object` };
      }
      const inner = nestedShapeProblem(item, path, depth + 1);
      if (inner) return inner;
    }
  }
  return undefined;
}
