import { EventStreamCodec } from '@smithy/eventstream-codec';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import { addCohere } from '../../inference/cohere-kit.js';
import {
  created,
  FAST_NETWORK,
  seen,
  startInferenceStack,
  type InferenceStack,
} from '../../inference/inference-kit.js';
import { SIM_AWS } from '../../simulator/families/bedrock.js';
import { vertexServiceAccount } from '../../simulator/families/vertex.js';

/** The six provider families a golden matrix converts into, each as `<provider>/<model>`. */
export const TARGETS = {
  openai: 'openai/gpt-4o-mini',
  anthropic: 'anthropic/claude-sonnet-4-5',
  gemini: 'gemini/gemini-2.5-flash',
  bedrock: 'bedrock/anthropic.claude-3-5-sonnet-20240620-v1:0',
  vertex: 'vertex/gemini-2.5-flash',
  cohere: 'cohere/command-r',
} as const;
export type Target = keyof typeof TARGETS;
export const TARGET_NAMES = Object.keys(TARGETS) as Target[];

/** The inference stack plus bedrock (SigV4 key), vertex (service account) and cohere, all against the simulator. */
export async function startGoldenStack(): Promise<InferenceStack> {
  const s = await startInferenceStack();
  await addCohere(s);
  await created(
    s.admin.post('/api/providers', {
      provider: 'bedrock',
      base_url: `${s.sim.url}/bedrock`,
      network_config: FAST_NETWORK,
    }),
  );
  await created(
    s.admin.post('/api/providers/bedrock/keys', {
      name: 'br-sigv4',
      bedrock_key_config: {
        region: 'us-east-1',
        access_key: SIM_AWS.accessKeyId,
        secret_key: SIM_AWS.secretAccessKey,
      },
    }),
  );
  await created(
    s.admin.post('/api/providers', {
      provider: 'vertex',
      base_url: `${s.sim.url}/vertex`,
      network_config: FAST_NETWORK,
    }),
  );
  await created(
    s.admin.post('/api/providers/vertex/keys', {
      name: 'vx-1',
      vertex_key_config: {
        project_id: 'sim-project',
        region: 'us-central1',
        auth_credentials: vertexServiceAccount(s.sim.url),
      },
    }),
  );
  return s;
}

/** The last call the simulator served for a model (the vertex token exchange is not one). */
export function upstreamCall(s: InferenceStack): { path: string; body: unknown } {
  const calls = seen(s.sim).filter((r) => r.path !== '/vertex/token');
  const last = calls.at(-1);
  return { path: last.path, body: last.body };
}

const SIM_ID = /^([A-Za-z]*[_-])?[0-9a-f]{22}$/;
const UUID_HEX = /^([A-Za-z]*[_-])?[0-9a-f]{32}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** Members whose numbers are clocks. */
const CLOCKS = new Set(['created', 'created_at', 'latencyMs']);

/**
 * Generated ids (the simulator's, the gateway's random ones) become `<prefix>#<n>`, numbered by first appearance, so a
 * golden still proves which ids are the same (a stream's end naming its start, a tool result naming its call); clock
 * numbers become `CLOCK`. Everything else is compared as sent.
 */
export function normaliseIds<T>(value: T): T {
  const ids = new Map<string, string>();
  const walk = (v: unknown, key?: string): unknown => {
    if (typeof v === 'string') {
      const m = SIM_ID.exec(v) ?? UUID_HEX.exec(v);
      if (m || UUID.test(v)) {
        let id = ids.get(v);
        if (!id) {
          id = `${m?.[1] ?? ''}#${ids.size + 1}`;
          ids.set(v, id);
        }
        return id;
      }
      return v;
    }
    if (typeof v === 'number' && key !== undefined && CLOCKS.has(key)) return 'CLOCK';
    if (Array.isArray(v)) return v.map((x) => walk(x));
    if (typeof v === 'object' && v !== null)
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x, k)]));
    return v;
  };
  return walk(value) as T;
}

const codec = new EventStreamCodec(toUtf8, fromUtf8);

/** An event-stream body as `[event type, payload]` pairs, each frame decoded by the codec (which checks both CRCs). */
export function decodeFrames(bytes: Uint8Array): Array<[string, unknown]> {
  const frames: Array<[string, unknown]> = [];
  let at = 0;
  while (at < bytes.length) {
    const length = new DataView(bytes.buffer, bytes.byteOffset + at, 4).getUint32(0);
    const message = codec.decode(bytes.subarray(at, at + length));
    const type = message.headers[':event-type'] ?? message.headers[':exception-type'];
    frames.push([String(type?.value), JSON.parse(toUtf8(message.body))]);
    at += length;
  }
  return frames;
}

/** The three exchanges of every cell. */
export const GOLDEN_REQUESTS = ['unary', 'toolStream', 'textStream'] as const;
export type GoldenRequest = (typeof GOLDEN_REQUESTS)[number];

/** What one exchange must show: the upstream path and body the simulator received, and the answer the client got. */
export interface Exchange {
  path: string;
  upstream: unknown;
  /** The native body, or the native events in order (SSE data parsed; Bedrock frames as `[event type, payload]`). */
  answer: unknown;
}
export type CellGolden = Record<GoldenRequest, Exchange>;

/** One provider format in: its three native requests, sent for a model, and its answer read back natively. */
export interface FormatCase {
  readonly name: string;
  /** The `content-type` its streams must carry. */
  readonly streamType: string;
  send(s: InferenceStack, model: string, request: GoldenRequest): Promise<{ status: number; answer: unknown }>;
}

export interface Sent {
  status: number;
  contentType: string | null;
  bytes: Uint8Array;
}

/** A POST with the virtual key in the header the format's SDKs use. */
export async function postNative(
  s: InferenceStack,
  path: string,
  body: unknown,
  auth: Record<string, string> = { authorization: `Bearer ${s.vk}` },
): Promise<Sent> {
  const response = await fetch(`${s.gw.baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...auth },
    body: JSON.stringify(body),
  });
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    bytes: new Uint8Array(await response.arrayBuffer()),
  };
}

/** An SSE body's events: the parsed `data:` of each (`[DONE]` kept as the string), with its `event:` name if any. */
export function sseEvents(text: string): Array<{ event?: string; data: unknown }> {
  return text
    .split(/\r?\n\r?\n/)
    .filter((block) => block.trim() !== '' && !block.startsWith(':'))
    .map((block) => {
      const lines = block.split(/\r?\n/);
      const event = lines
        .find((l) => l.startsWith('event:'))
        ?.slice(6)
        .trim();
      const raw = lines
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(5).trimStart())
        .join('\n');
      const data: unknown = raw === '[DONE]' ? raw : JSON.parse(raw);
      return event === undefined ? { data } : { event, data };
    });
}

/** The simulator family and path fragment of each target's chat call (a scenario matches the model call only). */
export const TARGET_CALLS: Record<Target, { family: 'openai' | Target; path: string }> = {
  openai: { family: 'openai', path: '/chat/completions' },
  anthropic: { family: 'anthropic', path: '/v1/messages' },
  gemini: { family: 'gemini', path: ':' },
  bedrock: { family: 'bedrock', path: '/converse' },
  vertex: { family: 'vertex', path: ':' },
  cohere: { family: 'cohere', path: '/v2/chat' },
};

/** The unary answer of every cell: a scripted call of the second tool (after the first one's result came back). */
export const SCRIPTED_CALL = { name: 'get_time', arguments: { city: 'Paris' } };
