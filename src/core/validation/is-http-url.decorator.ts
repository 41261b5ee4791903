import type { ValidationOptions } from 'class-validator';
import { ValidatesWith } from './field.decorators.js';

/** Longest URL accepted (what browsers and most servers support). */
export const MAX_URL_LENGTH = 2048;

/** Why `value` is not an absolute http(s) URL with a host and without user info, or undefined when it is one. */
export function httpUrlProblem(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length === 0) return 'must be a non-empty string';
  if (value.length > MAX_URL_LENGTH) return `must be at most ${MAX_URL_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must use http or https';
  if (!url.hostname) return 'must have a host';
  if (url.username || url.password) return 'must not contain user information';
  return undefined;
}

/** An absolute http(s) URL with a host and no user info (agent card, OAuth and interface URLs). */
export function IsHttpUrl(options: ValidationOptions = {}): PropertyDecorator {
  return ValidatesWith(
    'isHttpUrl',
    (value) => {
      const problem = httpUrlProblem(value);
      return problem && ` ${problem} (an absolute http(s) URL with a host and no user info)`;
    },
    options,
  );
}
