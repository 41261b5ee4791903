import type { ProviderId } from '../../src/modules/inference/providers/provider-ids.js';
import type {
  ProviderTarget,
  StreamDecoder,
  StreamOutput,
} from '../../src/modules/inference/providers/shared/provider-adapter.js';

/**
 * OpenAI wire bytes as the API sends them (shapes from the API reference: chat completion chunks with
 * `stream_options.include_usage`, Responses typed events), for the adapter and bridge unit tests.
 */

export function target(provider: ProviderId, overrides: Partial<ProviderTarget> = {}): ProviderTarget {
  return {
    provider,
    baseUrl: 'https://api.example.test/v1',
    extraHeaders: {},
    key: { id: 'k1', name: 'primary', value: 'sk-test-123' },
    model: 'gpt-4o',
    ...overrides,
  };
}

/** SSE text of `data:` events, each followed by a blank line. */
export function sse(...events: Array<string | object>): string {
  return events.map((e) => `data: ${typeof e === 'string' ? e : JSON.stringify(e)}\n\n`).join('');
}

/** SSE text of typed `event:`/`data:` pairs (the Responses API). */
export function typedSse(events: Array<{ event: string; data: object }>): string {
  return events.map((e) => `event: ${e.event}\ndata: ${JSON.stringify(e.data)}\n\n`).join('');
}

/**
 * Feeds the text in the given pieces, then ends the stream. A chunk relayed as sent (parsed only when read) is shown
 * as a plain `{ kind, chunk, raw }`, its parse read once here.
 */
export function decode(decoder: StreamDecoder, pieces: string[]): StreamOutput[] {
  return decodeAsIs(decoder, pieces).map((o) =>
    o.kind === 'chunk' && o.raw !== undefined && !Object.keys(o).includes('chunk')
      ? { kind: 'chunk', chunk: o.chunk, raw: o.raw }
      : o,
  );
}

/** The decoder's outputs exactly as it gives them. */
export function decodeAsIs(decoder: StreamDecoder, pieces: string[]): StreamOutput[] {
  const out: StreamOutput[] = [];
  for (const piece of pieces) out.push(...decoder.push(piece));
  out.push(...decoder.end());
  return out;
}

const chunkBase = {
  id: 'chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG',
  object: 'chat.completion.chunk',
  created: 1741570283,
  model: 'gpt-4o-2024-08-06',
  service_tier: 'default',
  system_fingerprint: 'fp_eb9dce56a8',
};

export const CHAT_TEXT_CHUNKS = [
  {
    ...chunkBase,
    choices: [
      { index: 0, delta: { role: 'assistant', content: '', refusal: null }, logprobs: null, finish_reason: null },
    ],
    usage: null,
  },
  {
    ...chunkBase,
    choices: [{ index: 0, delta: { content: 'Hello' }, logprobs: null, finish_reason: null }],
    usage: null,
  },
  {
    ...chunkBase,
    choices: [{ index: 0, delta: { content: ' there, «naïve» 👋\nbye' }, logprobs: null, finish_reason: null }],
    usage: null,
  },
  { ...chunkBase, choices: [{ index: 0, delta: {}, logprobs: null, finish_reason: 'stop' }], usage: null },
  {
    ...chunkBase,
    choices: [],
    usage: {
      prompt_tokens: 1200,
      completion_tokens: 10,
      total_tokens: 1210,
      prompt_tokens_details: { cached_tokens: 1024, audio_tokens: 0 },
      completion_tokens_details: {
        reasoning_tokens: 0,
        audio_tokens: 0,
        accepted_prediction_tokens: 0,
        rejected_prediction_tokens: 0,
      },
    },
  },
];

/** A whole chat stream: role chunk, two text deltas, the finish chunk, the usage-only chunk, `[DONE]`. */
export const CHAT_TEXT_STREAM = sse(...CHAT_TEXT_CHUNKS, '[DONE]');

const toolBase = { ...chunkBase, id: 'chatcmpl-tool1' };

export const CHAT_TOOL_CHUNKS = [
  {
    ...toolBase,
    choices: [
      {
        index: 0,
        delta: {
          role: 'assistant',
          content: null,
          tool_calls: [
            { index: 0, id: 'call_abc', type: 'function', function: { name: 'get_weather', arguments: '' } },
          ],
          refusal: null,
        },
        logprobs: null,
        finish_reason: null,
      },
    ],
    usage: null,
  },
  {
    ...toolBase,
    choices: [
      { index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: '{"lo' } }] }, finish_reason: null },
    ],
    usage: null,
  },
  {
    ...toolBase,
    choices: [
      {
        index: 0,
        delta: { tool_calls: [{ index: 0, function: { arguments: 'cation": "Paris"}' } }] },
        finish_reason: null,
      },
    ],
    usage: null,
  },
  {
    ...toolBase,
    choices: [
      {
        index: 0,
        delta: {
          tool_calls: [{ index: 1, id: 'call_def', type: 'function', function: { name: 'get_time', arguments: '{}' } }],
        },
        finish_reason: null,
      },
    ],
    usage: null,
  },
  { ...toolBase, choices: [{ index: 0, delta: {}, logprobs: null, finish_reason: 'tool_calls' }], usage: null },
  { ...toolBase, choices: [], usage: { prompt_tokens: 82, completion_tokens: 17, total_tokens: 99 } },
];

export const CHAT_TOOL_STREAM = sse(...CHAT_TOOL_CHUNKS, '[DONE]');

const respId = 'resp_67c9fdcecf488190bdd9a0409de3a1ec07b8b0ad4e5eb654';
const msgId = 'msg_67c9fdcf37fc8190ba82116e33fb28c507b8b0ad4e5eb654';

function responseObject(status: string, output: object[], usage: object | null): object {
  return {
    id: respId,
    object: 'response',
    created_at: 1741290958,
    status,
    error: null,
    incomplete_details: null,
    instructions: 'You are a helpful assistant.',
    max_output_tokens: null,
    model: 'gpt-4.1-2025-04-14',
    output,
    parallel_tool_calls: true,
    previous_response_id: null,
    reasoning: { effort: null, summary: null },
    store: true,
    temperature: 1,
    text: { format: { type: 'text' } },
    tool_choice: 'auto',
    tools: [],
    top_p: 1,
    truncation: 'disabled',
    usage,
    user: null,
    metadata: {},
  };
}

const finalMessage = {
  id: msgId,
  type: 'message',
  status: 'completed',
  role: 'assistant',
  content: [{ type: 'output_text', text: 'Hi there!', annotations: [] }],
};

export const RESPONSES_USAGE = {
  input_tokens: 2048,
  input_tokens_details: { cached_tokens: 1536 },
  output_tokens: 311,
  output_tokens_details: { reasoning_tokens: 256 },
  total_tokens: 2359,
};

export const RESPONSES_EVENTS = [
  {
    event: 'response.created',
    data: { type: 'response.created', sequence_number: 0, response: responseObject('in_progress', [], null) },
  },
  {
    event: 'response.in_progress',
    data: { type: 'response.in_progress', sequence_number: 1, response: responseObject('in_progress', [], null) },
  },
  {
    event: 'response.output_item.added',
    data: {
      type: 'response.output_item.added',
      sequence_number: 2,
      output_index: 0,
      item: { id: msgId, type: 'message', status: 'in_progress', role: 'assistant', content: [] },
    },
  },
  {
    event: 'response.content_part.added',
    data: {
      type: 'response.content_part.added',
      sequence_number: 3,
      item_id: msgId,
      output_index: 0,
      content_index: 0,
      part: { type: 'output_text', text: '', annotations: [] },
    },
  },
  {
    event: 'response.output_text.delta',
    data: {
      type: 'response.output_text.delta',
      sequence_number: 4,
      item_id: msgId,
      output_index: 0,
      content_index: 0,
      delta: 'Hi',
      logprobs: [],
    },
  },
  {
    event: 'response.output_text.delta',
    data: {
      type: 'response.output_text.delta',
      sequence_number: 5,
      item_id: msgId,
      output_index: 0,
      content_index: 0,
      delta: ' there!',
      logprobs: [],
    },
  },
  {
    event: 'response.output_text.done',
    data: {
      type: 'response.output_text.done',
      sequence_number: 6,
      item_id: msgId,
      output_index: 0,
      content_index: 0,
      text: 'Hi there!',
      logprobs: [],
    },
  },
  {
    event: 'response.content_part.done',
    data: {
      type: 'response.content_part.done',
      sequence_number: 7,
      item_id: msgId,
      output_index: 0,
      content_index: 0,
      part: { type: 'output_text', text: 'Hi there!', annotations: [] },
    },
  },
  {
    event: 'response.output_item.done',
    data: { type: 'response.output_item.done', sequence_number: 8, output_index: 0, item: finalMessage },
  },
  {
    event: 'response.completed',
    data: {
      type: 'response.completed',
      sequence_number: 9,
      response: responseObject('completed', [finalMessage], RESPONSES_USAGE),
    },
  },
];

export const RESPONSES_STREAM = typedSse(RESPONSES_EVENTS);

/** Every way of cutting `text` in two, plus one character at a time. */
export function splits(text: string): string[][] {
  const out: string[][] = [];
  for (let i = 1; i < text.length; i++) out.push([text.slice(0, i), text.slice(i)]);
  out.push([...text]);
  return out;
}
