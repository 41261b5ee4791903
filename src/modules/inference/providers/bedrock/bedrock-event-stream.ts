import { EventStreamCodec, type Message } from '@smithy/eventstream-codec';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';

/**
 * `application/vnd.amazon.eventstream` framing: each frame starts with its total length (u32, big-endian), so bytes
 * are buffered until a whole frame is there and the codec then checks both CRCs and reads the headers. Chunks may
 * split frames anywhere.
 */

/** One decoded frame: its string headers (`:message-type`, `:event-type`, `:exception-type`…) and JSON payload. */
export interface EventStreamFrame {
  headers: Record<string, string>;
  /** The payload parsed as JSON; undefined when it is empty or not JSON. */
  payload: unknown;
}

/** A frame that does not decode (bad CRC, impossible length): the stream cannot be resynchronised. */
export class EventStreamCorruptError extends Error {}

/** Prelude (total length, headers length, prelude CRC) + message CRC: the smallest possible frame. */
const MIN_FRAME = 16;
/** AWS caps an event-stream message at 16 MiB; anything longer is a corrupt length. */
const MAX_FRAME = 16 * 1024 * 1024;

const codec = new EventStreamCodec(toUtf8, fromUtf8);

export class EventStreamReader {
  private buffer: Uint8Array = new Uint8Array(0);

  /** The whole frames completed by `bytes`; throws EventStreamCorruptError on a frame that cannot be read. */
  push(bytes: Uint8Array): EventStreamFrame[] {
    this.buffer = this.buffer.length === 0 ? bytes : concat(this.buffer, bytes);
    const frames: EventStreamFrame[] = [];
    let offset = 0;
    while (this.buffer.length - offset >= 4) {
      const view = new DataView(this.buffer.buffer, this.buffer.byteOffset + offset, 4);
      const length = view.getUint32(0, false);
      if (length < MIN_FRAME || length > MAX_FRAME) throw new EventStreamCorruptError(`frame length ${length}`);
      if (this.buffer.length - offset < length) break;
      frames.push(readFrame(this.buffer.subarray(offset, offset + length)));
      offset += length;
    }
    this.buffer = offset === 0 ? this.buffer : this.buffer.slice(offset);
    return frames;
  }

  /** Bytes of an incomplete frame left when the stream ended. */
  get pending(): number {
    return this.buffer.length;
  }
}

function readFrame(bytes: Uint8Array): EventStreamFrame {
  let message: Message;
  try {
    message = codec.decode(bytes);
  } catch (err) {
    throw new EventStreamCorruptError((err as Error).message);
  }
  const headers: Record<string, string> = {};
  for (const [name, header] of Object.entries(message.headers))
    if (header.type === 'string') headers[name] = header.value;
  let payload: unknown;
  if (message.body.length > 0) {
    try {
      payload = JSON.parse(toUtf8(message.body)) as unknown;
    } catch {
      payload = undefined;
    }
  }
  return { headers, payload };
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}
