import { useForm } from '@mantine/form';
import { useState } from 'react';
import type { ObjectConstraints } from '../../api/constraints.gen';
import { ApiError } from '../../api/errors';
import { formPath, nestedProblems, objectProblems } from './constraints';

export interface ApiFormOptions<Values extends Record<string, unknown>> {
  initialValues: Values;
  /** The constraints the API declares for the request (constraints.gen.ts): the client checks exactly those. */
  constraints: ObjectConstraints;
  /** The request values the form's values stand for (lists joined, numbers parsed…); default: the same. */
  toRequest?: (values: Values) => Record<string, unknown>;
  /** Checks the constraints cannot express (a minimum above its maximum), by field. */
  validate?: (values: Values) => Record<string, string>;
  /**
   * The form path of an API `error.param` the form holds in another shape (a map edited as rows: the API's
   * `extra_headers.X-Org` is a row's name), or undefined for the default (`budgets[1].x` → `budgets.1.x`).
   */
  fieldOf?: (param: string, values: Values) => string | undefined;
}

/**
 * A form bound to one API request: checked on the client against the request's own constraints, and on a refusal
 * the API's message lands on the field it names (`error.param`) or above the form. What the user typed stays.
 */
export function useApiForm<Values extends Record<string, unknown>>(options: ApiFormOptions<Values>) {
  const { constraints, toRequest = (v: Values) => v, validate, fieldOf } = options;
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: options.initialValues,
    validate: (values) => {
      const fields = Object.keys(values).filter((name) => name in constraints.properties);
      const request = toRequest(values);
      return {
        ...objectProblems(request, constraints, fields),
        ...nestedProblems(request, constraints),
        ...validate?.(values),
      };
    },
  });
  const [formError, setFormError] = useState<unknown>();

  /** Shows a refusal: on its field when the form has it, else above the form. */
  const showError = (error: unknown) => {
    const param = error instanceof ApiError ? error.param : undefined;
    const field = param ? (fieldOf?.(param, form.getValues()) ?? formPath(param)) : undefined;
    if (field && field.split('.')[0]! in form.getValues()) {
      form.setFieldError(field, (error as ApiError).message);
      setFormError(undefined);
    } else {
      setFormError(error);
    }
  };

  /** The submit handler: clears earlier errors, runs `save`, and shows its refusal. */
  const onSubmit = (save: (values: Values) => Promise<void>) =>
    form.onSubmit(async (values) => {
      setFormError(undefined);
      try {
        await save(values);
      } catch (error) {
        showError(error);
      }
    });

  return { form, formError, showError, clearFormError: () => setFormError(undefined), onSubmit };
}
