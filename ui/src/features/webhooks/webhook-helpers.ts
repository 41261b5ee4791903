import type { Schema } from '../../api/schemas';
import { formatLatency } from '../../shared/format/format';

export type WebhookView = Schema<'Webhook'>;
export type WebhookCreate = Schema<'WebhookCreateRequest'>;
export type WebhookUpdate = Schema<'WebhookUpdateRequest'>;
export type Delivery = Schema<'WebhookDelivery'>;
export type DeliveryAttempt = Schema<'WebhookDeliveryAttempt'>;
export type DeliveryStatus = Schema<'WebhookDeliveryStatus'>;

/** A notification's close button, named (Mantine leaves it without an accessible name). */
export const DISMISS = { closeButtonProps: { 'aria-label': 'Dismiss' } } as const;

/** What the API answers for a secret it keeps: never the value. */
export const REDACTED = '<REDACTED>';

/**
 * Filled badge colours whose white text passes WCAG AA in both schemes (the shades the logs' status badges use), with
 * the word a person reads. Pending is not an alarm: grey.
 */
export const DELIVERY_STATUS: Record<DeliveryStatus, { label: string; color: string }> = {
  pending: { label: 'pending', color: 'gray.7' },
  succeeded: { label: 'succeeded', color: '#1e6b30' },
  failed: { label: 'failed', color: 'red.9' },
};

/** How long until `at` reads, from `now`: `in 3 s`, `in 2 min 5 s`, or `now` once due. */
export function dueIn(at: string, now: number): string {
  const ms = Date.parse(at) - now;
  if (!Number.isFinite(ms)) return at;
  if (ms <= 0) return 'now';
  return `in ${formatLatency(Math.ceil(ms / 1000) * 1000)}`;
}

const attemptsText = (n: number) => `${n} attempt${n === 1 ? '' : 's'}`;

/**
 * A delivery's retry state as one line: delivered on which attempt; failed after how many (no retry left, redeliver
 * to try again); or pending, waiting for its first attempt or retrying after a failed one, and when.
 */
export function retryState(delivery: Pick<Delivery, 'status' | 'attempt_count' | 'next_attempt_at'>, now: number) {
  const n = delivery.attempt_count;
  switch (delivery.status) {
    case 'succeeded':
      return `Delivered on attempt ${n}`;
    case 'failed':
      return `Failed after ${attemptsText(n)}; no retry left`;
    case 'pending': {
      const when = delivery.next_attempt_at ? ` ${dueIn(delivery.next_attempt_at, now)}` : '';
      if (n === 0) return `First attempt${when ? ` due${when}` : ' queued'}`;
      return `Attempt ${n} failed; retry${when ? ` due${when}` : ' queued'}`;
    }
  }
}

/** What one attempt came to: the receiver's status and the gateway's reason, or the status of a success. */
export function attemptOutcome(attempt: DeliveryAttempt): string {
  if (attempt.error) return attempt.error;
  return attempt.status_code !== undefined ? `HTTP ${attempt.status_code}` : 'no answer';
}

/** The last attempt's error, shown in the log's row ('' when the last attempt succeeded or none was made). */
export function lastError(delivery: Pick<Delivery, 'attempts'>): string {
  return delivery.attempts.at(-1)?.error ?? '';
}

/** A stored header's value as it reads on screen: never the value, the reference named when there is one. */
export function headerSource(value: Schema<'SecretValue'>): string {
  if ((value.type === 'env' || value.type === 'vault') && value.ref) return `Redacted (${value.ref})`;
  return 'Redacted';
}

export interface HeaderRow {
  name: string;
  /** Typed in this form; empty on a stored header means: keep the stored value. */
  value: string;
  /** The header exists on the server under this name (its value is kept unless one is typed). */
  stored: boolean;
}

export interface WebhookFormValues extends Record<string, unknown> {
  name: string;
  url: string;
  description: string;
  enabled: boolean;
  headers: HeaderRow[];
}

/** The form's values for a new webhook, or for editing `view` (header values never read back). */
export function webhookFormValues(view?: WebhookView): WebhookFormValues {
  return {
    name: view?.name ?? '',
    url: view?.url ?? '',
    description: view?.description ?? '',
    enabled: view?.enabled ?? true,
    headers: Object.keys(view?.headers ?? {}).map((name) => ({ name, value: '', stored: true })),
  };
}

/**
 * The header map the API takes: blank names dropped; a stored header left empty is sent as `<REDACTED>`, which the API
 * keeps as stored. A renamed stored header has no value to keep: it needs its value typed (webhookProblems).
 */
export function headersRequest(rows: HeaderRow[], storedNames: readonly string[]): Record<string, string> {
  const entries = rows
    .filter((row) => row.name.trim())
    .map((row) => {
      const name = row.name.trim();
      const keep = row.value === '' && storedNames.includes(name);
      return [name, keep ? REDACTED : row.value] as const;
    });
  return Object.fromEntries(entries);
}

/** The create request the form's values stand for. */
export function createRequest(values: WebhookFormValues): WebhookCreate {
  const headers = headersRequest(values.headers, []);
  return {
    name: values.name.trim(),
    url: values.url.trim(),
    ...(values.description.trim() ? { description: values.description.trim() } : {}),
    enabled: values.enabled,
    ...(Object.keys(headers).length > 0 ? { headers } : {}),
  };
}

/** The update request: every field sent replaces the stored one (headers too: a row removed is a header removed). */
export function updateRequest(values: WebhookFormValues, editing: WebhookView): WebhookUpdate {
  return {
    name: values.name.trim(),
    url: values.url.trim(),
    description: values.description.trim() || null,
    enabled: values.enabled,
    headers: headersRequest(values.headers, Object.keys(editing.headers)),
  };
}

/** The form's own checks beyond the constraints: a URL, header names, values where nothing is stored to keep. */
export function webhookProblems(values: WebhookFormValues, storedNames: readonly string[] = []) {
  const problems: Record<string, string> = {};
  if (!values.url.trim()) problems.url = 'The URL is required';
  const seen = new Set<string>();
  values.headers.forEach((row, index) => {
    const name = row.name.trim();
    if (!name) problems[`headers.${index}.name`] = 'A header name is required';
    else if (seen.has(name.toLowerCase())) problems[`headers.${index}.name`] = 'This header is already listed';
    seen.add(name.toLowerCase());
    if (row.value === '' && !(name && storedNames.includes(name)))
      problems[`headers.${index}.value`] = 'A value is required';
  });
  return problems;
}

/** The form path of an API `error.param` naming a header (`headers.X-Api-Key`): that header's row. */
export function headerField(param: string, values: WebhookFormValues): string | undefined {
  if (!param.startsWith('headers.')) return undefined;
  const name = param.slice('headers.'.length);
  const index = values.headers.findIndex((row) => row.name.trim() === name);
  return index < 0 ? undefined : `headers.${index}.name`;
}
