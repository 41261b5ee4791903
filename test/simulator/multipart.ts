/** A file part of a multipart body as the simulator records it: its name, type, size and (for asserts) its text. */
export interface SimFile {
  filename: string;
  content_type: string;
  size: number;
  /** The bytes as UTF-8 text (test files are small text or synthetic audio). */
  text: string;
}

export function isSimFile(value: unknown): value is SimFile {
  return typeof value === 'object' && value !== null && typeof (value as SimFile).filename === 'string';
}

/** The boundary of a `multipart/form-data` content-type, or undefined for any other type. */
export function multipartBoundary(contentType: string | undefined): string | undefined {
  if (!contentType || !/^multipart\/form-data/i.test(contentType)) return undefined;
  const m = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  return m?.[1] ?? m?.[2];
}

/**
 * A multipart/form-data body as an object, the way providers read forms: text fields as strings, files as
 * `SimFile`s, a repeated field (or `name[]`) as an array. Undefined when the body is not a well-formed form.
 */
export function parseMultipart(raw: Buffer, boundary: string): Record<string, unknown> | undefined {
  const delimiter = Buffer.from(`--${boundary}`);
  const out: Record<string, unknown> = {};
  let at = raw.indexOf(delimiter);
  if (at < 0) return undefined;
  for (;;) {
    at += delimiter.length;
    if (raw.subarray(at, at + 2).toString() === '--') return out;
    at += 2; // CRLF after the delimiter
    const headEnd = raw.indexOf('\r\n\r\n', at);
    if (headEnd < 0) return undefined;
    const head = raw.subarray(at, headEnd).toString('utf8');
    const next = raw.indexOf(delimiter, headEnd + 4);
    if (next < 0) return undefined;
    const content = raw.subarray(headEnd + 4, next - 2); // the CRLF before the next delimiter
    const name = /name="([^"]*)"/i.exec(head)?.[1];
    if (name === undefined) return undefined;
    const filename = /filename="([^"]*)"/i.exec(head)?.[1];
    const type = /content-type:\s*([^\r\n]+)/i.exec(head)?.[1]?.trim();
    const value: unknown =
      filename === undefined
        ? content.toString('utf8')
        : {
            filename,
            content_type: type ?? 'application/octet-stream',
            size: content.length,
            text: content.toString('utf8'),
          };
    const key = name.endsWith('[]') ? name.slice(0, -2) : name;
    const existing = out[key];
    if (existing === undefined) out[key] = name.endsWith('[]') ? [value] : value;
    else out[key] = Array.isArray(existing) ? [...(existing as unknown[]), value] : [existing, value];
    at = next;
  }
}
