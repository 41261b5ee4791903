type Headers = Record<string, string | string[] | undefined>;

function first(headers: Headers, name: string): string | undefined {
  const v = headers[name];
  return (Array.isArray(v) ? v[0] : v)?.trim() || undefined;
}

/**
 * The provider's retry hint in milliseconds from its headers, unclamped: `retry-after-ms` (OpenAI, Azure), then
 * `Retry-After` as seconds or as an HTTP date. Undefined when absent or unreadable.
 */
export function retryHintFromHeaders(headers: Headers, now = Date.now()): number | undefined {
  const ms = first(headers, 'retry-after-ms');
  if (ms !== undefined && /^\d+(\.\d+)?$/.test(ms)) return Math.ceil(Number(ms));
  const after = first(headers, 'retry-after');
  if (after === undefined) return undefined;
  if (/^\d+(\.\d+)?$/.test(after)) return Math.ceil(Number(after) * 1000);
  const date = Date.parse(after);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Gemini / Vertex: `error.details[{"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "37s"}]`. */
export function retryHintFromRetryInfo(details: unknown): number | undefined {
  if (!Array.isArray(details)) return undefined;
  for (const d of details as Array<Record<string, unknown>>) {
    if (typeof d !== 'object' || d === null) continue;
    const type = d['@type'];
    if (typeof type === 'string' && type.endsWith('google.rpc.RetryInfo') && typeof d.retryDelay === 'string') {
      const m = /^(\d+(?:\.\d+)?)s$/.exec(d.retryDelay.trim());
      if (m) return Math.ceil(Number(m[1]) * 1000);
    }
  }
  return undefined;
}

/** The contract's `extra_fields.retry_after_ms`: the hint clamped to 1000–300000. */
export function clampRetryAfterMs(ms: number): number {
  return Math.min(300_000, Math.max(1000, Math.round(ms)));
}
