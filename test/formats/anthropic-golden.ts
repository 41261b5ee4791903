/**
 * The Anthropic requests of the golden conversion tests: every member the `/anthropic` format converts, and the
 * Anthropic-only ones an Anthropic target must get back byte for byte (thinking signatures, cache_control, tool ids).
 */

export const SIGNATURE = 'EqQBCkYIARgCIkDnb2xkZW4gc2lnbmF0dXJlIGJ5dGVz';
export const REDACTED =
  'EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpPkNRj2YfWXGmKDxH4mPnZ5sQ7vB5URG';
const IMAGE = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

export const GOLDEN_TOOLS = [
  {
    name: 'get_weather',
    description: 'Weather of a city',
    input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    cache_control: { type: 'ephemeral' },
  },
];

/** A second turn of a coding agent: cached system prompt, thinking before a tool call, the tool's result. */
export const GOLDEN_REQUEST = {
  model: 'claude-sonnet-4-5',
  max_tokens: 4000,
  system: [
    { type: 'text', text: 'You are a careful agent.' },
    { type: 'text', text: 'Long cached instructions.', cache_control: { type: 'ephemeral', ttl: '1h' } },
  ],
  messages: [
    {
      role: 'user',
      content: [
        { type: 'text', text: 'What is the weather in Paris?' },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: IMAGE } },
      ],
    },
    {
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'I should call the weather tool.', signature: SIGNATURE },
        { type: 'redacted_thinking', data: REDACTED },
        { type: 'text', text: 'Let me check.' },
        { type: 'tool_use', id: 'toolu_01GoldenA', name: 'get_weather', input: { city: 'Paris' } },
      ],
    },
    {
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: 'toolu_01GoldenA',
          content: [{ type: 'text', text: 'sunny, 21C' }],
          cache_control: { type: 'ephemeral' },
        },
      ],
    },
  ],
  tools: GOLDEN_TOOLS,
  tool_choice: { type: 'auto' },
  thinking: { type: 'enabled', budget_tokens: 2048 },
  stop_sequences: ['END'],
  temperature: 1,
  top_k: 40,
  metadata: { user_id: 'user-42' },
};

/** A first turn, streamed, that calls a tool (thinking on). */
export const GOLDEN_STREAM_REQUEST = {
  model: 'claude-sonnet-4-5',
  max_tokens: 4000,
  stream: true,
  system: 'You are a careful agent.',
  messages: [{ role: 'user', content: 'call get_weather {"city":"Paris"}' }],
  tools: GOLDEN_TOOLS,
  thinking: { type: 'enabled', budget_tokens: 2048 },
};

/** What each target received and answered (ids replaced by MSG_ID / TOOL_ID: they are generated). */
export const GOLDEN = {
  'claude-sonnet-4-5': {
    path: '/anthropic/v1/messages',
    upstream: {
      model: 'claude-sonnet-4-5',
      system: [
        { type: 'text', text: 'You are a careful agent.' },
        { type: 'text', text: 'Long cached instructions.', cache_control: { type: 'ephemeral', ttl: '1h' } },
      ],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is the weather in Paris?' },
            {
              type: 'image',
              source: {
                type: 'base64',
                media_type: 'image/png',
                data: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
              },
            },
          ],
        },
        {
          role: 'assistant',
          content: [
            {
              type: 'thinking',
              thinking: 'I should call the weather tool.',
              signature: 'EqQBCkYIARgCIkDnb2xkZW4gc2lnbmF0dXJlIGJ5dGVz',
            },
            {
              type: 'redacted_thinking',
              data: 'EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpPkNRj2YfWXGmKDxH4mPnZ5sQ7vB5URG',
            },
            { type: 'text', text: 'Let me check.' },
            { type: 'tool_use', id: 'toolu_01GoldenA', name: 'get_weather', input: { city: 'Paris' } },
          ],
        },
        {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              tool_use_id: 'toolu_01GoldenA',
              content: [{ type: 'text', text: 'sunny, 21C' }],
              cache_control: { type: 'ephemeral' },
            },
          ],
        },
      ],
      max_tokens: 4000,
      thinking: { type: 'enabled', budget_tokens: 2048 },
      stop_sequences: ['END'],
      temperature: 1,
      top_k: 40,
      tools: [
        {
          name: 'get_weather',
          description: 'Weather of a city',
          input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
          cache_control: { type: 'ephemeral' },
        },
      ],
      tool_choice: { type: 'auto' },
      metadata: { user_id: 'user-42' },
    },
    answer: {
      id: 'MSG_ID',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-5',
      content: [
        {
          type: 'thinking',
          thinking: 'Let me think about this request.',
          signature: 'EqQBCkYIARgCIkBzaW11bGF0b3Igc2lnbmF0dXJl',
        },
        { type: 'text', text: 'echo: sunny, 21C' },
      ],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 19, output_tokens: 3, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    },
    streamUpstream: {
      model: 'claude-sonnet-4-5',
      system: 'You are a careful agent.',
      messages: [{ role: 'user', content: 'call get_weather {"city":"Paris"}' }],
      max_tokens: 4000,
      thinking: { type: 'enabled', budget_tokens: 2048 },
      tools: [
        {
          name: 'get_weather',
          description: 'Weather of a city',
          input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
          cache_control: { type: 'ephemeral' },
        },
      ],
      stream: true,
    },
    events: [
      {
        type: 'message_start',
        message: {
          id: 'MSG_ID',
          type: 'message',
          role: 'assistant',
          model: 'claude-sonnet-4-5',
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 8, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
        },
      },
      { type: 'ping' },
      { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } },
      {
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'thinking_delta', thinking: 'Let me think about this request.' },
      },
      {
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'signature_delta', signature: 'EqQBCkYIARgCIkBzaW11bGF0b3Igc2lnbmF0dXJl' },
      },
      { type: 'content_block_stop', index: 0 },
      {
        type: 'content_block_start',
        index: 1,
        content_block: { type: 'tool_use', id: 'TOOL_ID', name: 'get_weather', input: {} },
      },
      { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '{"city":"Par' } },
      { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: 'is"}' } },
      { type: 'content_block_stop', index: 1 },
      {
        type: 'message_delta',
        delta: { stop_reason: 'tool_use', stop_sequence: null },
        usage: { input_tokens: 8, output_tokens: 2, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
      },
      { type: 'message_stop' },
    ],
  },
  'openai/gpt-4o-mini': {
    path: '/openai/v1/chat/completions',
    upstream: {
      model: 'gpt-4o-mini',
      messages: [
        {
          role: 'system',
          content: [
            { type: 'text', text: 'You are a careful agent.' },
            { type: 'text', text: 'Long cached instructions.' },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is the weather in Paris?' },
            {
              type: 'image_url',
              image_url: {
                url: 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
              },
            },
          ],
        },
        {
          role: 'assistant',
          content: 'Let me check.',
          tool_calls: [
            {
              id: 'toolu_01GoldenA',
              type: 'function',
              function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'toolu_01GoldenA', content: [{ type: 'text', text: 'sunny, 21C' }] },
      ],
      tools: [
        {
          type: 'function',
          function: {
            name: 'get_weather',
            description: 'Weather of a city',
            parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
          },
        },
      ],
      tool_choice: 'auto',
      reasoning_effort: 'low',
      max_tokens: 4000,
      stop: ['END'],
      temperature: 1,
      user: 'user-42',
    },
    answer: {
      id: 'MSG_ID',
      type: 'message',
      role: 'assistant',
      model: 'openai/gpt-4o-mini',
      content: [{ type: 'text', text: 'echo: sunny, 21C' }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 19, output_tokens: 3, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    },
    streamUpstream: {
      model: 'gpt-4o-mini',
      messages: [
        { role: 'system', content: 'You are a careful agent.' },
        { role: 'user', content: 'call get_weather {"city":"Paris"}' },
      ],
      tools: [
        {
          type: 'function',
          function: {
            name: 'get_weather',
            description: 'Weather of a city',
            parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
          },
        },
      ],
      reasoning_effort: 'low',
      max_tokens: 4000,
      stream: true,
      stream_options: { include_usage: true },
    },
    events: [
      {
        type: 'message_start',
        message: {
          id: 'MSG_ID',
          type: 'message',
          role: 'assistant',
          model: 'openai/gpt-4o-mini',
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 0, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
        },
      },
      { type: 'ping' },
      {
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'tool_use', id: 'TOOL_ID', name: 'get_weather', input: {} },
      },
      { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"city":"Par' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: 'is"}' } },
      { type: 'content_block_stop', index: 0 },
      {
        type: 'message_delta',
        delta: { stop_reason: 'tool_use', stop_sequence: null },
        usage: { input_tokens: 8, output_tokens: 2, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
      },
      { type: 'message_stop' },
    ],
  },
  'gemini/gemini-2.0-flash': {
    path: '/gemini/v1beta/models/gemini-2.0-flash:generateContent',
    upstream: {
      contents: [
        {
          role: 'user',
          parts: [
            { text: 'What is the weather in Paris?' },
            {
              inlineData: {
                mimeType: 'image/png',
                data: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
              },
            },
          ],
        },
        {
          role: 'model',
          parts: [{ text: 'Let me check.' }, { functionCall: { name: 'get_weather', args: { city: 'Paris' } } }],
        },
        { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { content: 'sunny, 21C' } } }] },
      ],
      systemInstruction: { parts: [{ text: 'You are a careful agent.' }, { text: 'Long cached instructions.' }] },
      tools: [
        {
          functionDeclarations: [
            {
              name: 'get_weather',
              description: 'Weather of a city',
              parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
            },
          ],
        },
      ],
      toolConfig: { functionCallingConfig: { mode: 'AUTO' } },
      generationConfig: {
        maxOutputTokens: 4000,
        temperature: 1,
        topK: 40,
        stopSequences: ['END'],
        thinkingConfig: { thinkingBudget: 1024, includeThoughts: true },
      },
    },
    answer: {
      id: 'MSG_ID',
      type: 'message',
      role: 'assistant',
      model: 'gemini/gemini-2.0-flash',
      content: [{ type: 'text', text: 'echo: {"content":"sunny, 21C"}' }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 19, output_tokens: 3, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    },
    streamUpstream: {
      contents: [{ role: 'user', parts: [{ text: 'call get_weather {"city":"Paris"}' }] }],
      systemInstruction: { parts: [{ text: 'You are a careful agent.' }] },
      tools: [
        {
          functionDeclarations: [
            {
              name: 'get_weather',
              description: 'Weather of a city',
              parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
            },
          ],
        },
      ],
      generationConfig: { maxOutputTokens: 4000, thinkingConfig: { thinkingBudget: 1024, includeThoughts: true } },
    },
    events: [
      {
        type: 'message_start',
        message: {
          id: 'MSG_ID',
          type: 'message',
          role: 'assistant',
          model: 'gemini/gemini-2.0-flash',
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 0, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
        },
      },
      { type: 'ping' },
      {
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'tool_use', id: 'TOOL_ID', name: 'get_weather', input: {} },
      },
      { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"city":"Paris"}' } },
      { type: 'content_block_stop', index: 0 },
      {
        type: 'message_delta',
        delta: { stop_reason: 'tool_use', stop_sequence: null },
        usage: { input_tokens: 8, output_tokens: 2, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
      },
      { type: 'message_stop' },
    ],
  },
} as const;
