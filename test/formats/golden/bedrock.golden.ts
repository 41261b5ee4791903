import type { CellGolden, Target } from './golden-kit.js';

/**
 * /bedrock (Bedrock Converse) in, each provider out: what the simulator received and what the client got, written out.
 * Generated ids read `<prefix>#<n>` (numbered by first appearance), clocks `CLOCK` (see `normaliseIds`).
 */
export const BEDROCK_GOLDEN: Record<Target, CellGolden> = {
  openai: {
    unary: {
      path: '/openai/v1/chat/completions',
      upstream: {
        model: 'gpt-4o-mini',
        messages: [
          { role: 'system', content: 'You are a careful agent.' },
          { role: 'user', content: [{ type: 'text', text: 'What is the weather in Paris?' }] },
          {
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                id: 'tooluse_golden_1',
                type: 'function',
                function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
              },
            ],
          },
          { role: 'tool', tool_call_id: 'tooluse_golden_1', content: 'sunny, 21C' },
        ],
        max_tokens: 2048,
        temperature: 1,
        tools: [
          {
            type: 'function',
            function: {
              name: 'get_weather',
              description: 'Weather of a city',
              parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
            },
          },
          {
            type: 'function',
            function: {
              name: 'get_time',
              description: 'Local time of a city',
              parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
            },
          },
        ],
        tool_choice: 'auto',
        reasoning_effort: 'low',
      },
      answer: {
        output: {
          message: {
            role: 'assistant',
            content: [{ toolUse: { toolUseId: 'call_#1', name: 'get_time', input: { city: 'Paris' } } }],
          },
        },
        stopReason: 'tool_use',
        usage: { inputTokens: 13, outputTokens: 2, totalTokens: 15 },
        metrics: { latencyMs: 'CLOCK' },
      },
    },
    toolStream: {
      path: '/openai/v1/chat/completions',
      upstream: {
        model: 'gpt-4o-mini',
        messages: [
          { role: 'system', content: 'You are a careful agent.' },
          { role: 'user', content: [{ type: 'text', text: 'call get_weather {"city":"Paris"}' }] },
        ],
        max_tokens: 2048,
        tools: [
          {
            type: 'function',
            function: {
              name: 'get_weather',
              description: 'Weather of a city',
              parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
            },
          },
          {
            type: 'function',
            function: {
              name: 'get_time',
              description: 'Local time of a city',
              parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
            },
          },
        ],
        tool_choice: 'auto',
        reasoning_effort: 'low',
        stream: true,
        stream_options: { include_usage: true },
      },
      answer: [
        ['messageStart', { role: 'assistant' }],
        [
          'contentBlockStart',
          { contentBlockIndex: 0, start: { toolUse: { toolUseId: 'call_#1', name: 'get_weather' } } },
        ],
        ['contentBlockDelta', { contentBlockIndex: 0, delta: { toolUse: { input: '{"city":"Par' } } }],
        ['contentBlockDelta', { contentBlockIndex: 0, delta: { toolUse: { input: 'is"}' } } }],
        ['contentBlockStop', { contentBlockIndex: 0 }],
        ['messageStop', { stopReason: 'tool_use' }],
        ['metadata', { usage: { inputTokens: 8, outputTokens: 2, totalTokens: 10 }, metrics: { latencyMs: 'CLOCK' } }],
      ],
    },
    textStream: {
      path: '/openai/v1/chat/completions',
      upstream: {
        model: 'gpt-4o-mini',
        messages: [{ role: 'user', content: [{ type: 'text', text: 'golden words' }] }],
        max_tokens: 64,
        stream: true,
        stream_options: { include_usage: true },
      },
      answer: [
        ['messageStart', { role: 'assistant' }],
        ['contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'echo:' } }],
        ['contentBlockDelta', { contentBlockIndex: 0, delta: { text: ' golden' } }],
        ['contentBlockDelta', { contentBlockIndex: 0, delta: { text: ' words' } }],
        ['contentBlockStop', { contentBlockIndex: 0 }],
        ['messageStop', { stopReason: 'end_turn' }],
        ['metadata', { usage: { inputTokens: 2, outputTokens: 3, totalTokens: 5 }, metrics: { latencyMs: 'CLOCK' } }],
      ],
    },
  },
  anthropic: {
    unary: {
      path: '/anthropic/v1/messages',
      upstream: {
        model: 'claude-sonnet-4-5',
        system: 'You are a careful agent.',
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'What is the weather in Paris?' }] },
          {
            role: 'assistant',
            content: [
              {
                type: 'thinking',
                thinking: 'I should call the weather tool.',
                signature: 'EqQBCkYIARgCIkDnb2xkZW4gc2lnbmF0dXJlIGJ5dGVz',
              },
              { type: 'tool_use', id: 'tooluse_golden_1', name: 'get_weather', input: { city: 'Paris' } },
            ],
          },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'tooluse_golden_1', content: 'sunny, 21C' }] },
        ],
        max_tokens: 2048,
        thinking: { type: 'enabled', budget_tokens: 1024 },
        temperature: 1,
        tools: [
          {
            name: 'get_weather',
            description: 'Weather of a city',
            input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
          },
          {
            name: 'get_time',
            description: 'Local time of a city',
            input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
          },
        ],
        tool_choice: { type: 'auto' },
      },
      answer: {
        output: {
          message: {
            role: 'assistant',
            content: [
              {
                reasoningContent: {
                  reasoningText: {
                    text: 'Let me think about this request.',
                    signature: 'EqQBCkYIARgCIkBzaW11bGF0b3Igc2lnbmF0dXJl',
                  },
                },
              },
              { toolUse: { toolUseId: 'toolu_#1', name: 'get_time', input: { city: 'Paris' } } },
            ],
          },
        },
        stopReason: 'tool_use',
        usage: { inputTokens: 13, outputTokens: 2, totalTokens: 15 },
        metrics: { latencyMs: 'CLOCK' },
      },
    },
    toolStream: {
      path: '/anthropic/v1/messages',
      upstream: {
        model: 'claude-sonnet-4-5',
        system: 'You are a careful agent.',
        messages: [{ role: 'user', content: [{ type: 'text', text: 'call get_weather {"city":"Paris"}' }] }],
        max_tokens: 2048,
        thinking: { type: 'enabled', budget_tokens: 1024 },
        tools: [
          {
            name: 'get_weather',
            description: 'Weather of a city',
            input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
          },
          {
            name: 'get_time',
            description: 'Local time of a city',
            input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
          },
        ],
        tool_choice: { type: 'auto' },
        stream: true,
      },
      answer: [
        ['messageStart', { role: 'assistant' }],
        [
          'contentBlockDelta',
          { contentBlockIndex: 0, delta: { reasoningContent: { text: 'Let me think about this request.' } } },
        ],
        [
          'contentBlockDelta',
          {
            contentBlockIndex: 0,
            delta: { reasoningContent: { signature: 'EqQBCkYIARgCIkBzaW11bGF0b3Igc2lnbmF0dXJl' } },
          },
        ],
        ['contentBlockStop', { contentBlockIndex: 0 }],
        [
          'contentBlockStart',
          { contentBlockIndex: 1, start: { toolUse: { toolUseId: 'toolu_#1', name: 'get_weather' } } },
        ],
        ['contentBlockDelta', { contentBlockIndex: 1, delta: { toolUse: { input: '{"city":"Par' } } }],
        ['contentBlockDelta', { contentBlockIndex: 1, delta: { toolUse: { input: 'is"}' } } }],
        ['contentBlockStop', { contentBlockIndex: 1 }],
        ['messageStop', { stopReason: 'tool_use' }],
        ['metadata', { usage: { inputTokens: 8, outputTokens: 2, totalTokens: 10 }, metrics: { latencyMs: 'CLOCK' } }],
      ],
    },
    textStream: {
      path: '/anthropic/v1/messages',
      upstream: {
        model: 'claude-sonnet-4-5',
        messages: [{ role: 'user', content: [{ type: 'text', text: 'golden words' }] }],
        max_tokens: 64,
        stream: true,
      },
      answer: [
        ['messageStart', { role: 'assistant' }],
        ['contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'echo:' } }],
        ['contentBlockDelta', { contentBlockIndex: 0, delta: { text: ' golden' } }],
        ['contentBlockDelta', { contentBlockIndex: 0, delta: { text: ' words' } }],
        ['contentBlockStop', { contentBlockIndex: 0 }],
        ['messageStop', { stopReason: 'end_turn' }],
        ['metadata', { usage: { inputTokens: 2, outputTokens: 3, totalTokens: 5 }, metrics: { latencyMs: 'CLOCK' } }],
      ],
    },
  },
  gemini: {
    unary: {
      path: '/gemini/v1beta/models/gemini-2.5-flash:generateContent',
      upstream: {
        contents: [
          { role: 'user', parts: [{ text: 'What is the weather in Paris?' }] },
          { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { city: 'Paris' } } }] },
          { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { content: 'sunny, 21C' } } }] },
        ],
        systemInstruction: { parts: [{ text: 'You are a careful agent.' }] },
        tools: [
          {
            functionDeclarations: [
              {
                name: 'get_weather',
                description: 'Weather of a city',
                parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
              },
              {
                name: 'get_time',
                description: 'Local time of a city',
                parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
              },
            ],
          },
        ],
        toolConfig: { functionCallingConfig: { mode: 'AUTO' } },
        generationConfig: {
          maxOutputTokens: 2048,
          temperature: 1,
          thinkingConfig: { thinkingBudget: 1024, includeThoughts: true },
        },
      },
      answer: {
        output: {
          message: {
            role: 'assistant',
            content: [{ toolUse: { toolUseId: 'call_0', name: 'get_time', input: { city: 'Paris' } } }],
          },
        },
        stopReason: 'tool_use',
        usage: { inputTokens: 13, outputTokens: 2, totalTokens: 15 },
        metrics: { latencyMs: 'CLOCK' },
      },
    },
    toolStream: {
      path: '/gemini/v1beta/models/gemini-2.5-flash:streamGenerateContent',
      upstream: {
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
              {
                name: 'get_time',
                description: 'Local time of a city',
                parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
              },
            ],
          },
        ],
        toolConfig: { functionCallingConfig: { mode: 'AUTO' } },
        generationConfig: { maxOutputTokens: 2048, thinkingConfig: { thinkingBudget: 1024, includeThoughts: true } },
      },
      answer: [
        ['messageStart', { role: 'assistant' }],
        [
          'contentBlockStart',
          { contentBlockIndex: 0, start: { toolUse: { toolUseId: 'call_0', name: 'get_weather' } } },
        ],
        ['contentBlockDelta', { contentBlockIndex: 0, delta: { toolUse: { input: '{"city":"Paris"}' } } }],
        ['contentBlockStop', { contentBlockIndex: 0 }],
        ['messageStop', { stopReason: 'tool_use' }],
        ['metadata', { usage: { inputTokens: 8, outputTokens: 2, totalTokens: 10 }, metrics: { latencyMs: 'CLOCK' } }],
      ],
    },
    textStream: {
      path: '/gemini/v1beta/models/gemini-2.5-flash:streamGenerateContent',
      upstream: {
        contents: [{ role: 'user', parts: [{ text: 'golden words' }] }],
        generationConfig: { maxOutputTokens: 64 },
      },
      answer: [
        ['messageStart', { role: 'assistant' }],
        ['contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'echo:' } }],
        ['contentBlockDelta', { contentBlockIndex: 0, delta: { text: ' golden' } }],
        ['contentBlockDelta', { contentBlockIndex: 0, delta: { text: ' words' } }],
        ['contentBlockStop', { contentBlockIndex: 0 }],
        ['messageStop', { stopReason: 'end_turn' }],
        ['metadata', { usage: { inputTokens: 2, outputTokens: 3, totalTokens: 5 }, metrics: { latencyMs: 'CLOCK' } }],
      ],
    },
  },
  bedrock: {
    unary: {
      path: '/bedrock/model/anthropic.claude-3-5-sonnet-20240620-v1%3A0/converse',
      upstream: {
        messages: [
          { role: 'user', content: [{ text: 'What is the weather in Paris?' }] },
          {
            role: 'assistant',
            content: [
              {
                reasoningContent: {
                  reasoningText: {
                    text: 'I should call the weather tool.',
                    signature: 'EqQBCkYIARgCIkDnb2xkZW4gc2lnbmF0dXJlIGJ5dGVz',
                  },
                },
              },
              { toolUse: { toolUseId: 'tooluse_golden_1', name: 'get_weather', input: { city: 'Paris' } } },
            ],
          },
          {
            role: 'user',
            content: [{ toolResult: { toolUseId: 'tooluse_golden_1', content: [{ text: 'sunny, 21C' }] } }],
          },
        ],
        system: [{ text: 'You are a careful agent.' }],
        inferenceConfig: { maxTokens: 2048, temperature: 1 },
        toolConfig: {
          tools: [
            {
              toolSpec: {
                name: 'get_weather',
                description: 'Weather of a city',
                inputSchema: { json: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
              },
            },
            {
              toolSpec: {
                name: 'get_time',
                description: 'Local time of a city',
                inputSchema: { json: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
              },
            },
          ],
          toolChoice: { auto: {} },
        },
        additionalModelRequestFields: { thinking: { type: 'enabled', budget_tokens: 1024 } },
      },
      answer: {
        output: {
          message: {
            role: 'assistant',
            content: [
              {
                reasoningContent: {
                  reasoningText: {
                    text: 'Let me think about this request.',
                    signature: 'c2ltdWxhdG9yIHNpZ25hdHVyZQ==',
                  },
                },
              },
              { toolUse: { toolUseId: 'tooluse_#1', name: 'get_time', input: { city: 'Paris' } } },
            ],
          },
        },
        stopReason: 'tool_use',
        usage: { inputTokens: 13, outputTokens: 2, totalTokens: 15 },
        metrics: { latencyMs: 'CLOCK' },
      },
    },
    toolStream: {
      path: '/bedrock/model/anthropic.claude-3-5-sonnet-20240620-v1%3A0/converse-stream',
      upstream: {
        messages: [{ role: 'user', content: [{ text: 'call get_weather {"city":"Paris"}' }] }],
        system: [{ text: 'You are a careful agent.' }],
        inferenceConfig: { maxTokens: 2048 },
        toolConfig: {
          tools: [
            {
              toolSpec: {
                name: 'get_weather',
                description: 'Weather of a city',
                inputSchema: { json: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
              },
            },
            {
              toolSpec: {
                name: 'get_time',
                description: 'Local time of a city',
                inputSchema: { json: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
              },
            },
          ],
          toolChoice: { auto: {} },
        },
        additionalModelRequestFields: { thinking: { type: 'enabled', budget_tokens: 1024 } },
      },
      answer: [
        ['messageStart', { role: 'assistant' }],
        [
          'contentBlockDelta',
          { contentBlockIndex: 0, delta: { reasoningContent: { text: 'Let me think about this request.' } } },
        ],
        [
          'contentBlockDelta',
          { contentBlockIndex: 0, delta: { reasoningContent: { signature: 'c2ltdWxhdG9yIHNpZ25hdHVyZQ==' } } },
        ],
        ['contentBlockStop', { contentBlockIndex: 0 }],
        [
          'contentBlockStart',
          { contentBlockIndex: 1, start: { toolUse: { toolUseId: 'tooluse_#1', name: 'get_weather' } } },
        ],
        ['contentBlockDelta', { contentBlockIndex: 1, delta: { toolUse: { input: '{"city":"Par' } } }],
        ['contentBlockDelta', { contentBlockIndex: 1, delta: { toolUse: { input: 'is"}' } } }],
        ['contentBlockStop', { contentBlockIndex: 1 }],
        ['messageStop', { stopReason: 'tool_use' }],
        ['metadata', { usage: { inputTokens: 8, outputTokens: 2, totalTokens: 10 }, metrics: { latencyMs: 'CLOCK' } }],
      ],
    },
    textStream: {
      path: '/bedrock/model/anthropic.claude-3-5-sonnet-20240620-v1%3A0/converse-stream',
      upstream: {
        messages: [{ role: 'user', content: [{ text: 'golden words' }] }],
        inferenceConfig: { maxTokens: 64 },
      },
      answer: [
        ['messageStart', { role: 'assistant' }],
        ['contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'echo:' } }],
        ['contentBlockDelta', { contentBlockIndex: 0, delta: { text: ' golden' } }],
        ['contentBlockDelta', { contentBlockIndex: 0, delta: { text: ' words' } }],
        ['contentBlockStop', { contentBlockIndex: 0 }],
        ['messageStop', { stopReason: 'end_turn' }],
        ['metadata', { usage: { inputTokens: 2, outputTokens: 3, totalTokens: 5 }, metrics: { latencyMs: 'CLOCK' } }],
      ],
    },
  },
  vertex: {
    unary: {
      path: '/vertex/v1/projects/sim-project/locations/us-central1/publishers/google/models/gemini-2.5-flash:generateContent',
      upstream: {
        contents: [
          { role: 'user', parts: [{ text: 'What is the weather in Paris?' }] },
          { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { city: 'Paris' } } }] },
          { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { content: 'sunny, 21C' } } }] },
        ],
        systemInstruction: { parts: [{ text: 'You are a careful agent.' }] },
        tools: [
          {
            functionDeclarations: [
              {
                name: 'get_weather',
                description: 'Weather of a city',
                parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
              },
              {
                name: 'get_time',
                description: 'Local time of a city',
                parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
              },
            ],
          },
        ],
        toolConfig: { functionCallingConfig: { mode: 'AUTO' } },
        generationConfig: {
          maxOutputTokens: 2048,
          temperature: 1,
          thinkingConfig: { thinkingBudget: 1024, includeThoughts: true },
        },
      },
      answer: {
        output: {
          message: {
            role: 'assistant',
            content: [{ toolUse: { toolUseId: 'call_0', name: 'get_time', input: { city: 'Paris' } } }],
          },
        },
        stopReason: 'tool_use',
        usage: { inputTokens: 13, outputTokens: 2, totalTokens: 15 },
        metrics: { latencyMs: 'CLOCK' },
      },
    },
    toolStream: {
      path: '/vertex/v1/projects/sim-project/locations/us-central1/publishers/google/models/gemini-2.5-flash:streamGenerateContent',
      upstream: {
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
              {
                name: 'get_time',
                description: 'Local time of a city',
                parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
              },
            ],
          },
        ],
        toolConfig: { functionCallingConfig: { mode: 'AUTO' } },
        generationConfig: { maxOutputTokens: 2048, thinkingConfig: { thinkingBudget: 1024, includeThoughts: true } },
      },
      answer: [
        ['messageStart', { role: 'assistant' }],
        [
          'contentBlockStart',
          { contentBlockIndex: 0, start: { toolUse: { toolUseId: 'call_0', name: 'get_weather' } } },
        ],
        ['contentBlockDelta', { contentBlockIndex: 0, delta: { toolUse: { input: '{"city":"Paris"}' } } }],
        ['contentBlockStop', { contentBlockIndex: 0 }],
        ['messageStop', { stopReason: 'tool_use' }],
        ['metadata', { usage: { inputTokens: 8, outputTokens: 2, totalTokens: 10 }, metrics: { latencyMs: 'CLOCK' } }],
      ],
    },
    textStream: {
      path: '/vertex/v1/projects/sim-project/locations/us-central1/publishers/google/models/gemini-2.5-flash:streamGenerateContent',
      upstream: {
        contents: [{ role: 'user', parts: [{ text: 'golden words' }] }],
        generationConfig: { maxOutputTokens: 64 },
      },
      answer: [
        ['messageStart', { role: 'assistant' }],
        ['contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'echo:' } }],
        ['contentBlockDelta', { contentBlockIndex: 0, delta: { text: ' golden' } }],
        ['contentBlockDelta', { contentBlockIndex: 0, delta: { text: ' words' } }],
        ['contentBlockStop', { contentBlockIndex: 0 }],
        ['messageStop', { stopReason: 'end_turn' }],
        ['metadata', { usage: { inputTokens: 2, outputTokens: 3, totalTokens: 5 }, metrics: { latencyMs: 'CLOCK' } }],
      ],
    },
  },
  cohere: {
    unary: {
      path: '/cohere/v2/chat',
      upstream: {
        model: 'command-r',
        messages: [
          { role: 'system', content: 'You are a careful agent.' },
          { role: 'user', content: [{ type: 'text', text: 'What is the weather in Paris?' }] },
          {
            role: 'assistant',
            tool_calls: [
              {
                id: 'tooluse_golden_1',
                type: 'function',
                function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
              },
            ],
          },
          { role: 'tool', tool_call_id: 'tooluse_golden_1', content: 'sunny, 21C' },
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
          {
            type: 'function',
            function: {
              name: 'get_time',
              description: 'Local time of a city',
              parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
            },
          },
        ],
        max_tokens: 2048,
        temperature: 1,
        thinking: { type: 'enabled', token_budget: 1024 },
      },
      answer: {
        output: {
          message: {
            role: 'assistant',
            content: [
              { reasoningContent: { reasoningText: { text: 'Let me think about this request.' } } },
              { text: 'I will call get_time.' },
              { toolUse: { toolUseId: 'call_#1', name: 'get_time', input: { city: 'Paris' } } },
            ],
          },
        },
        stopReason: 'tool_use',
        usage: { inputTokens: 13, outputTokens: 2, totalTokens: 15 },
        metrics: { latencyMs: 'CLOCK' },
      },
    },
    toolStream: {
      path: '/cohere/v2/chat',
      upstream: {
        model: 'command-r',
        messages: [
          { role: 'system', content: 'You are a careful agent.' },
          { role: 'user', content: [{ type: 'text', text: 'call get_weather {"city":"Paris"}' }] },
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
          {
            type: 'function',
            function: {
              name: 'get_time',
              description: 'Local time of a city',
              parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
            },
          },
        ],
        max_tokens: 2048,
        thinking: { type: 'enabled', token_budget: 1024 },
        stream: true,
      },
      answer: [
        ['messageStart', { role: 'assistant' }],
        [
          'contentBlockDelta',
          { contentBlockIndex: 0, delta: { reasoningContent: { text: 'Let me think about this request.' } } },
        ],
        ['contentBlockStop', { contentBlockIndex: 0 }],
        ['contentBlockDelta', { contentBlockIndex: 1, delta: { text: 'I will call get_weather.' } }],
        ['contentBlockStop', { contentBlockIndex: 1 }],
        [
          'contentBlockStart',
          { contentBlockIndex: 2, start: { toolUse: { toolUseId: 'call_#1', name: 'get_weather' } } },
        ],
        ['contentBlockDelta', { contentBlockIndex: 2, delta: { toolUse: { input: '{"city":"Par' } } }],
        ['contentBlockDelta', { contentBlockIndex: 2, delta: { toolUse: { input: 'is"}' } } }],
        ['contentBlockStop', { contentBlockIndex: 2 }],
        ['messageStop', { stopReason: 'tool_use' }],
        ['metadata', { usage: { inputTokens: 8, outputTokens: 2, totalTokens: 10 }, metrics: { latencyMs: 'CLOCK' } }],
      ],
    },
    textStream: {
      path: '/cohere/v2/chat',
      upstream: {
        model: 'command-r',
        messages: [{ role: 'user', content: [{ type: 'text', text: 'golden words' }] }],
        max_tokens: 64,
        stream: true,
      },
      answer: [
        ['messageStart', { role: 'assistant' }],
        ['contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'echo:' } }],
        ['contentBlockDelta', { contentBlockIndex: 0, delta: { text: ' golden' } }],
        ['contentBlockDelta', { contentBlockIndex: 0, delta: { text: ' words' } }],
        ['contentBlockStop', { contentBlockIndex: 0 }],
        ['messageStop', { stopReason: 'end_turn' }],
        ['metadata', { usage: { inputTokens: 2, outputTokens: 3, totalTokens: 5 }, metrics: { latencyMs: 'CLOCK' } }],
      ],
    },
  },
};
