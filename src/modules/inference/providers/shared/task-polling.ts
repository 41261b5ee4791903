import { GatewayException } from '../../../../core/errors/gateway.exception.js';
import { Cancellation } from '../../../../core/outbound/cancellation.js';
import { providerException } from './provider-exception.js';
import type { Json, ProviderError, TaskWait } from './provider-adapter.js';
import { isJsonObject, parseJson } from './wire-json.js';

/**
 * Waiting for a provider's task (Replicate's predictions, Runway's tasks): poll its status URL until the task is
 * terminal, with a growing interval, inside the attempt's deadline, stopping at once when the caller goes away.
 */

/** First wait before a poll; each next wait is `POLL_BACKOFF` times longer, up to `MAX_POLL_MS`. */
const FIRST_POLL_MS = 250;
const POLL_BACKOFF = 1.5;
const MAX_POLL_MS = 2_000;

export interface TaskPoll {
  provider: string;
  /** The task's status URL, built from the provider's base URL (never a URL the answer names: the key goes there). */
  url: string;
  headers: Record<string, string>;
  /** True while the task is still queued or running. */
  pending(task: Json): boolean;
  /** Reads a non-2xx answer of the status URL. */
  parseError(status: number, body: string): ProviderError;
}

/** Polls `poll.url` until the task is no longer pending; resolves to the terminal task. */
export async function pollTask(poll: TaskPoll, wait: TaskWait): Promise<Json> {
  let interval = FIRST_POLL_MS;
  for (;;) {
    const remaining = wait.deadline - wait.io.now();
    if (remaining <= 0) throw taskTimeout(poll.provider);
    if (!(await wait.signal.delay(Math.min(interval, remaining)))) throw wait.signal.reason;
    const task = await pollOnce(poll, wait);
    if (!poll.pending(task)) return task;
    interval = Math.min(interval * POLL_BACKOFF, MAX_POLL_MS);
  }
}

/** One status read, cut at the deadline (a 504) or when the caller goes away (thrown as the caller's reason). */
async function pollOnce(poll: TaskPoll, wait: TaskWait): Promise<Json> {
  const remaining = wait.deadline - wait.io.now();
  if (remaining <= 0) throw taskTimeout(poll.provider);
  const cut = new Cancellation();
  const onAbort = () => cut.abort(wait.signal.reason);
  wait.signal.once('abort', onAbort);
  const timer = setTimeout(() => cut.abort(taskTimeout(poll.provider)), remaining);
  try {
    const answer = await wait.io.get(poll.url, poll.headers, cut);
    if (answer.status < 200 || answer.status >= 300) {
      throw providerException(poll.parseError(answer.status, answer.body));
    }
    const task = parseJson(answer.body);
    if (!isJsonObject(task)) {
      throw new GatewayException(502, 'upstream_error', `${poll.provider} answered a task status that is not JSON`, {
        reason: 'provider_server_error',
      });
    }
    return task;
  } catch (err) {
    if (cut.aborted && !wait.signal.aborted) throw taskTimeout(poll.provider);
    throw err;
  } finally {
    clearTimeout(timer);
    wait.signal.removeListener('abort', onAbort);
  }
}

/** The task ran past the provider's request timeout: 504, like a call that never answered. */
export function taskTimeout(provider: string): GatewayException {
  return new GatewayException(
    504,
    'upstream_timeout',
    `${provider} did not finish the task within the provider's request timeout`,
    { reason: 'provider_timeout' },
  );
}

/** The provider reports the task failed or was cancelled: 502 with the provider's own message and code. */
export function taskFailed(provider: string, message: string | undefined, code?: string): GatewayException {
  const error: ProviderError = {
    status: 502,
    message: message || `The ${provider} task failed`,
    reason: 'provider_server_error',
  };
  if (code) error.code = code;
  return providerException(error);
}
