/**
 * A file of a multipart /v1 request (transcription audio, an image to edit), as the canonical body carries it. Its
 * JSON form is a summary (name, type, size): a log row, a raw capture or an error that serialises a body never
 * stores the bytes.
 */
export class UploadedFile {
  constructor(
    readonly filename: string,
    readonly contentType: string,
    readonly bytes: Buffer,
  ) {}

  toJSON(): { filename: string; content_type: string; bytes: number } {
    return { filename: this.filename, content_type: this.contentType, bytes: this.bytes.length };
  }
}

export function isUploadedFile(value: unknown): value is UploadedFile {
  return value instanceof UploadedFile;
}
