/**
 * OpenAPI request bodies of the /v1 routes: the fields the gateway itself reads, documented exactly; everything else
 * of the OpenAI wire shape passes through to the provider (`additionalProperties: true`).
 */
const model = {
  type: 'string',
  minLength: 1,
  maxLength: 512,
  description: '`<provider>/<model>` (for example `openai/gpt-4o`), or a bare model a configured key lists',
  example: 'openai/gpt-4o-mini',
};
const fallbacks = {
  type: 'array',
  maxItems: 10,
  items: { type: 'string', minLength: 1, maxLength: 512 },
  description: 'Models tried in order when the primary ends in 429, 5xx, a timeout, a connection failure or dead keys',
};
const stream = { type: 'boolean', default: false, description: 'Answer with Server-Sent Events' };
const streamOptions = {
  type: 'object',
  properties: { include_usage: { type: 'boolean', description: 'End the stream with a usage chunk' } },
};
const message = {
  type: 'object',
  required: ['role'],
  properties: { role: { type: 'string', minLength: 1 }, content: {} },
  additionalProperties: true,
};
const stringOrArray = (description: string) => ({
  oneOf: [{ type: 'string' }, { type: 'array', minItems: 1, items: {} }],
  description,
});

function body(required: string[], properties: Record<string, unknown>) {
  return {
    type: 'object',
    required: ['model', ...required],
    properties: { model, ...properties },
    additionalProperties: true,
  };
}

export const INFERENCE_BODY_SCHEMAS = {
  chat: body(['messages'], {
    messages: { type: 'array', minItems: 1, items: message },
    stream,
    stream_options: streamOptions,
    fallbacks,
  }),
  completions: body(['prompt'], {
    prompt: stringOrArray('Prompt text'),
    stream,
    stream_options: streamOptions,
    fallbacks,
  }),
  responses: body(['input'], { input: stringOrArray('Input text or items'), stream, fallbacks }),
  embeddings: body(['input'], { input: stringOrArray('Text (or texts) to embed'), fallbacks }),
  rerank: body(['query', 'documents'], {
    query: { type: 'string', minLength: 1 },
    documents: { type: 'array', minItems: 1, items: {} },
    top_n: { type: 'integer', minimum: 1 },
    fallbacks,
  }),
  count_tokens: body([], {
    messages: { type: 'array', minItems: 1, items: message },
    input: stringOrArray('Responses-style input, when messages is absent'),
  }),
  speech: body(['input'], {
    input: { type: 'string', minLength: 1, description: 'Text to speak' },
    voice: { type: 'string', description: 'OpenAI voice name; ElevenLabs: the voice id' },
    response_format: { type: 'string', enum: ['mp3', 'opus', 'aac', 'flac', 'wav', 'pcm'] },
    stream_format: {
      type: 'string',
      enum: ['audio', 'sse'],
      default: 'audio',
      description: 'sse: speech.audio.delta events with base64 audio, then speech.audio.done (OpenAI-wire providers)',
    },
    fallbacks,
  }),
  transcription: body(['file'], {
    file: { type: 'string', format: 'binary', description: 'The audio file' },
    response_format: { type: 'string', enum: ['json', 'text', 'srt', 'verbose_json', 'vtt', 'diarized_json'] },
    fallbacks: { ...fallbacks, description: `${fallbacks.description} (repeat the field, or send fallbacks[])` },
  }),
  image_generation: body(['prompt'], {
    prompt: { type: 'string', minLength: 1 },
    image: {
      type: 'string',
      description: 'Runway video models: the first frame (https URL or data: URI); the answer is the MP4 URL',
    },
    response_format: { type: 'string', enum: ['url', 'b64_json'] },
    fallbacks,
  }),
  image_edit: body(['image', 'prompt'], {
    image: { type: 'string', format: 'binary', description: 'The image (several as image[])' },
    mask: { type: 'string', format: 'binary' },
    prompt: { type: 'string', minLength: 1 },
    response_format: { type: 'string', enum: ['url', 'b64_json'] },
  }),
  image_variation: body(['image'], {
    image: { type: 'string', format: 'binary' },
    response_format: { type: 'string', enum: ['url', 'b64_json'] },
  }),
  ocr: body(['document'], {
    document: {
      type: 'object',
      required: ['type'],
      properties: {
        type: { type: 'string', enum: ['document_url', 'image_url'] },
        document_url: { type: 'string' },
        image_url: { type: 'string' },
      },
      additionalProperties: true,
    },
    fallbacks,
  }),
} as const;
