import { findJobSettings } from './job-catalogue.js';
import type { JobContext } from './job-handler.decorator.js';
import type { JobHandlerRegistry } from './job-handler.registry.js';

/**
 * Runs one attempt of a job through its registered handler, shared by both drivers so timeouts behave the same:
 * after `timeoutMs` the context's signal aborts and the attempt fails (the handler should honour the signal).
 */
export async function runJobAttempt(
  registry: JobHandlerRegistry,
  name: string,
  payload: unknown,
  context: Omit<JobContext, 'signal'>,
  timeoutMs = findJobSettings(name)?.timeoutMs,
): Promise<unknown> {
  const handler = registry.get(name);
  if (!timeoutMs) return handler(payload, { ...context });
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new Error(`job ${name} timed out after ${timeoutMs} ms`);
      controller.abort(error);
      reject(error);
    }, timeoutMs);
  });
  try {
    return await Promise.race([handler(payload, { ...context, signal: controller.signal }), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
