import { ValidationPipe, type ValidationError } from '@nestjs/common';
import { GatewayException } from './gateway.exception.js';

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
      return { param, message: message.replace(e.property, param) };
    }
    const nested = e.children?.length ? firstProblem(e.children, param) : undefined;
    if (nested) return nested;
  }
  return undefined;
}

/** The global pipe: validates DTOs and answers 400 `validation_failed` naming the field. */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
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
