/** How much of a caller's input an error message or log line may repeat (a path, a name, a header value). */
export const ECHO_MAX_CHARS = 200;

/**
 * Cuts a value the caller sent before it is repeated in an error message or a log line, so a 16 KiB path or a
 * 10 MB field cannot be mirrored back or amplified into the logs. The marker says how much was left out.
 */
export function clip(value: string, max = ECHO_MAX_CHARS): string {
  if (value.length <= max) return value;
  return `${value.slice(0, max)}…(${value.length - max} more characters)`;
}
