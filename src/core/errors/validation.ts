import { ValidationPipe, type ArgumentMetadata, type ValidationError } from '@nestjs/common';
import { inputProblem, valueAt } from '../validation/input-limits.js';
import { nestedShapeProblem } from '../validation/nested-shape.js';
import { GatewayException } from './gateway.exception.js';

/**
 * A constraint message may name a part of its property, `scopes[2] must be …` or `headers.X-Api-Key must be …`
 * (the list and map decorators do): the param then names that item instead of the whole property.
 */
const SUB_PATH = /^(?:\[\d+\]|\.[^\s[]+)+/;

/** The dotted path and message of the first failing field (`runtime_auth.oauth.client_id`, `ids[2]`). */
export function firstProblem(errors: ValidationError[], prefix = ''): { param: string; message: string } | undefined {
  for (const e of errors) {
    const param = /^\d+$/.test(e.property)
      ? `${prefix}[${e.property}]`
      : prefix
        ? `${prefix}.${e.property}`
        : e.property;
    const message = Object.values(e.constraints ?? {})[0];
    if (message) {
      if (message.includes('should not exist')) return { param, message: `${param} is not a known field` };
      // A list item that is itself a list: class-validator walks into it and blames its items (`budgets[0][0]`).
      // The item is at fault: it must be an object.
      if (message.includes('must be either object or array')) {
        const item = param.replace(/^(.*?\[\d+\])(\[\d+\])+$/, '$1');
        return { param: item, message: `${item} must be an object` };
      }
      const sub = message.startsWith(e.property) ? SUB_PATH.exec(message.slice(e.property.length))?.[0] : undefined;
      if (sub) return { param: `${param}${sub}`, message: `${param}${message.slice(e.property.length)}` };
      return { param, message: message.replace(e.property, param) };
    }
    const nested = e.children?.length ? firstProblem(e.children, param) : undefined;
    if (nested) return nested;
  }
  return undefined;
}

const isObjectBody = (value: unknown) => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The global pipe: validates DTOs and answers 400 `validation_failed` naming the field. Before class-transformer
 * runs it refuses what no field may hold (a body that is not a JSON object, NUL characters, values beyond
 * INPUT_LIMITS), so those never reach a service or the database.
 */
export class GatewayValidationPipe extends ValidationPipe {
  constructor() {
    super({
      whitelist: true,
      forbidNonWhitelisted: true,
      transform: true,
      stopAtFirstError: true,
      validationError: { target: false, value: false },
      exceptionFactory: (errors) => {
        const problem = firstProblem(errors) ?? { param: 'body', message: 'Request body is invalid' };
        return GatewayException.validation(problem.param, problem.message);
      },
    });
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'custom') return super.transform(value, metadata);
    if (metadata.type === 'body' && value !== undefined && this.toValidate(metadata) && !isObjectBody(value)) {
      throw GatewayException.validation('body', 'body must be a JSON object');
    }
    const problem = inputProblem(value, '', metadata.data ?? metadata.type);
    if (problem) throw GatewayException.validation(problem.param, problem.message);
    let validated: unknown;
    try {
      validated = await super.transform(value, metadata);
    } catch (err) {
      // Whatever constraint failed first, `null` for a field that is not nullable deserves the plain reason; a field
      // that is not declared at all stays "not a known field", whatever its value.
      if (
        err instanceof GatewayException &&
        err.param &&
        err.message !== `${err.param} is not a known field` &&
        valueAt(value, err.param) === null
      ) {
        throw GatewayException.validation(err.param, `${err.param} must not be null`);
      }
      throw err;
    }
    const shape = nestedShapeProblem(validated);
    if (shape) throw GatewayException.validation(shape.param, shape.message);
    return validated;
  }
}

export function createValidationPipe(): ValidationPipe {
  return new GatewayValidationPipe();
}
