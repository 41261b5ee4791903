import type { CellGolden, Target } from './golden-kit.js';

/**
 * /genai (Gemini API (genai)) in, each provider out: what the simulator received and what the client got, written out.
 * Generated ids read `<prefix>#<n>` (numbered by first appearance), clocks `CLOCK` (see `normaliseIds`).
 */
export const GENAI_GOLDEN: Record<Target, CellGolden> = {
  openai: {
    unary: {
      path: '/openai/v1/chat/completions',
      upstream: {
        model: 'gpt-4o-mini',
        messages: [
          { role: 'system', content: 'You are a careful agent.' },
          { role: 'user', content: 'What is the weather in Paris?' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [
              { id: 'call_0', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
            ],
          },
          { role: 'tool', tool_call_id: 'call_0', content: '{"content":"sunny, 21C"}' },
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
        tool_choice: 'auto',
        temperature: 1,
        max_tokens: 2048,
        reasoning_effort: 'low',
      },
      answer: {
        candidates: [
          {
            content: { role: 'model', parts: [{ functionCall: { name: 'get_time', args: { city: 'Paris' } } }] },
            finishReason: 'STOP',
            index: 0,
          },
        ],
        usageMetadata: { promptTokenCount: 13, candidatesTokenCount: 2, totalTokenCount: 15 },
        modelVersion: 'gpt-4o-mini',
        responseId: 'chatcmpl-#1',
      },
    },
    toolStream: {
      path: '/openai/v1/chat/completions',
      upstream: {
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
        reasoning_effort: 'low',
        stream: true,
        stream_options: { include_usage: true },
      },
      answer: [
        {
          candidates: [
            {
              content: { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { city: 'Paris' } } }] },
              finishReason: 'STOP',
              index: 0,
            },
          ],
          usageMetadata: { promptTokenCount: 8, candidatesTokenCount: 2, totalTokenCount: 10 },
          modelVersion: 'gpt-4o-mini',
          responseId: 'chatcmpl-#1',
        },
      ],
    },
    textStream: {
      path: '/openai/v1/chat/completions',
      upstream: {
        model: 'gpt-4o-mini',
        messages: [{ role: 'user', content: 'golden words' }],
        max_tokens: 64,
        stream: true,
        stream_options: { include_usage: true },
      },
      answer: [
        {
          candidates: [{ content: { role: 'model', parts: [{ text: 'echo:' }] }, index: 0 }],
          modelVersion: 'gpt-4o-mini',
          responseId: 'chatcmpl-#1',
        },
        {
          candidates: [{ content: { role: 'model', parts: [{ text: ' golden' }] }, index: 0 }],
          modelVersion: 'gpt-4o-mini',
          responseId: 'chatcmpl-#1',
        },
        {
          candidates: [{ content: { role: 'model', parts: [{ text: ' words' }] }, index: 0 }],
          modelVersion: 'gpt-4o-mini',
          responseId: 'chatcmpl-#1',
        },
        {
          candidates: [{ content: { role: 'model', parts: [{ text: '' }] }, finishReason: 'STOP', index: 0 }],
          usageMetadata: { promptTokenCount: 2, candidatesTokenCount: 3, totalTokenCount: 5 },
          modelVersion: 'gpt-4o-mini',
          responseId: 'chatcmpl-#1',
        },
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
          { role: 'user', content: 'What is the weather in Paris?' },
          {
            role: 'assistant',
            content: [{ type: 'tool_use', id: 'call_0', name: 'get_weather', input: { city: 'Paris' } }],
          },
          {
            role: 'user',
            content: [{ type: 'tool_result', tool_use_id: 'call_0', content: '{"content":"sunny, 21C"}' }],
          },
        ],
        max_tokens: 2048,
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
        candidates: [
          {
            content: {
              role: 'model',
              parts: [{ functionCall: { name: 'get_time', args: { city: 'Paris' } } }],
            },
            finishReason: 'STOP',
            index: 0,
          },
        ],
        usageMetadata: { promptTokenCount: 13, candidatesTokenCount: 2, totalTokenCount: 15 },
        modelVersion: 'claude-sonnet-4-5',
        responseId: 'msg_#1',
      },
    },
    toolStream: {
      path: '/anthropic/v1/messages',
      upstream: {
        model: 'claude-sonnet-4-5',
        system: 'You are a careful agent.',
        messages: [{ role: 'user', content: 'call get_weather {"city":"Paris"}' }],
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
        stream: true,
      },
      answer: [
        {
          candidates: [
            {
              content: { role: 'model', parts: [{ text: 'Let me think about this request.', thought: true }] },
              index: 0,
            },
          ],
          modelVersion: 'claude-sonnet-4-5',
          responseId: 'msg_#1',
        },
        {
          candidates: [
            {
              content: { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { city: 'Paris' } } }] },
              finishReason: 'STOP',
              index: 0,
            },
          ],
          usageMetadata: { promptTokenCount: 8, candidatesTokenCount: 2, totalTokenCount: 10 },
          modelVersion: 'claude-sonnet-4-5',
          responseId: 'msg_#1',
        },
      ],
    },
    textStream: {
      path: '/anthropic/v1/messages',
      upstream: {
        model: 'claude-sonnet-4-5',
        messages: [{ role: 'user', content: 'golden words' }],
        max_tokens: 64,
        stream: true,
      },
      answer: [
        {
          candidates: [{ content: { role: 'model', parts: [{ text: 'echo:' }] }, index: 0 }],
          modelVersion: 'claude-sonnet-4-5',
          responseId: 'msg_#1',
        },
        {
          candidates: [{ content: { role: 'model', parts: [{ text: ' golden' }] }, index: 0 }],
          modelVersion: 'claude-sonnet-4-5',
          responseId: 'msg_#1',
        },
        {
          candidates: [{ content: { role: 'model', parts: [{ text: ' words' }] }, index: 0 }],
          modelVersion: 'claude-sonnet-4-5',
          responseId: 'msg_#1',
        },
        {
          candidates: [{ content: { role: 'model', parts: [{ text: '' }] }, finishReason: 'STOP', index: 0 }],
          usageMetadata: { promptTokenCount: 2, candidatesTokenCount: 3, totalTokenCount: 5 },
          modelVersion: 'claude-sonnet-4-5',
          responseId: 'msg_#1',
        },
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
        candidates: [
          {
            content: { role: 'model', parts: [{ functionCall: { name: 'get_time', args: { city: 'Paris' } } }] },
            finishReason: 'STOP',
            index: 0,
          },
        ],
        usageMetadata: { promptTokenCount: 13, candidatesTokenCount: 2, totalTokenCount: 15 },
        modelVersion: 'gemini-2.5-flash',
        responseId: '#1',
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
        generationConfig: { maxOutputTokens: 2048, thinkingConfig: { thinkingBudget: 1024, includeThoughts: true } },
      },
      answer: [
        {
          candidates: [
            {
              content: { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { city: 'Paris' } } }] },
              finishReason: 'STOP',
              index: 0,
            },
          ],
          usageMetadata: { promptTokenCount: 8, candidatesTokenCount: 2, totalTokenCount: 10 },
          modelVersion: 'gemini-2.5-flash',
          responseId: '#1',
        },
      ],
    },
    textStream: {
      path: '/gemini/v1beta/models/gemini-2.5-flash:streamGenerateContent',
      upstream: {
        contents: [{ role: 'user', parts: [{ text: 'golden words' }] }],
        generationConfig: { maxOutputTokens: 64 },
      },
      answer: [
        {
          candidates: [{ content: { role: 'model', parts: [{ text: 'echo:' }] }, index: 0 }],
          modelVersion: 'gemini-2.5-flash',
          responseId: '#1',
        },
        {
          candidates: [{ content: { role: 'model', parts: [{ text: ' golden' }] }, index: 0 }],
          modelVersion: 'gemini-2.5-flash',
          responseId: '#1',
        },
        {
          candidates: [{ content: { role: 'model', parts: [{ text: ' words' }] }, finishReason: 'STOP', index: 0 }],
          usageMetadata: { promptTokenCount: 2, candidatesTokenCount: 3, totalTokenCount: 5 },
          modelVersion: 'gemini-2.5-flash',
          responseId: '#1',
        },
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
            content: [{ toolUse: { toolUseId: 'call_0', name: 'get_weather', input: { city: 'Paris' } } }],
          },
          {
            role: 'user',
            content: [{ toolResult: { toolUseId: 'call_0', content: [{ text: '{"content":"sunny, 21C"}' }] } }],
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
      },
      answer: {
        candidates: [
          {
            content: {
              role: 'model',
              parts: [{ functionCall: { name: 'get_time', args: { city: 'Paris' } } }],
            },
            finishReason: 'STOP',
            index: 0,
          },
        ],
        usageMetadata: { promptTokenCount: 13, candidatesTokenCount: 2, totalTokenCount: 15 },
        modelVersion: 'anthropic.claude-3-5-sonnet-20240620-v1:0',
        responseId: 'chatcmpl-#1',
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
        },
        additionalModelRequestFields: { thinking: { type: 'enabled', budget_tokens: 1024 } },
      },
      answer: [
        {
          candidates: [
            {
              content: { role: 'model', parts: [{ text: 'Let me think about this request.', thought: true }] },
              index: 0,
            },
          ],
          modelVersion: 'anthropic.claude-3-5-sonnet-20240620-v1:0',
          responseId: 'chatcmpl-#1',
        },
        {
          candidates: [
            {
              content: { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { city: 'Paris' } } }] },
              finishReason: 'STOP',
              index: 0,
            },
          ],
          usageMetadata: { promptTokenCount: 8, candidatesTokenCount: 2, totalTokenCount: 10 },
          modelVersion: 'anthropic.claude-3-5-sonnet-20240620-v1:0',
          responseId: 'chatcmpl-#1',
        },
      ],
    },
    textStream: {
      path: '/bedrock/model/anthropic.claude-3-5-sonnet-20240620-v1%3A0/converse-stream',
      upstream: {
        messages: [{ role: 'user', content: [{ text: 'golden words' }] }],
        inferenceConfig: { maxTokens: 64 },
      },
      answer: [
        {
          candidates: [{ content: { role: 'model', parts: [{ text: 'echo:' }] }, index: 0 }],
          modelVersion: 'anthropic.claude-3-5-sonnet-20240620-v1:0',
          responseId: 'chatcmpl-#1',
        },
        {
          candidates: [{ content: { role: 'model', parts: [{ text: ' golden' }] }, index: 0 }],
          modelVersion: 'anthropic.claude-3-5-sonnet-20240620-v1:0',
          responseId: 'chatcmpl-#1',
        },
        {
          candidates: [{ content: { role: 'model', parts: [{ text: ' words' }] }, index: 0 }],
          modelVersion: 'anthropic.claude-3-5-sonnet-20240620-v1:0',
          responseId: 'chatcmpl-#1',
        },
        {
          candidates: [{ content: { role: 'model', parts: [{ text: '' }] }, finishReason: 'STOP', index: 0 }],
          usageMetadata: { promptTokenCount: 2, candidatesTokenCount: 3, totalTokenCount: 5 },
          modelVersion: 'anthropic.claude-3-5-sonnet-20240620-v1:0',
          responseId: 'chatcmpl-#1',
        },
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
        candidates: [
          {
            content: { role: 'model', parts: [{ functionCall: { name: 'get_time', args: { city: 'Paris' } } }] },
            finishReason: 'STOP',
            index: 0,
          },
        ],
        usageMetadata: { promptTokenCount: 13, candidatesTokenCount: 2, totalTokenCount: 15 },
        modelVersion: 'gemini-2.5-flash',
        responseId: '#1',
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
        generationConfig: { maxOutputTokens: 2048, thinkingConfig: { thinkingBudget: 1024, includeThoughts: true } },
      },
      answer: [
        {
          candidates: [
            {
              content: { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { city: 'Paris' } } }] },
              finishReason: 'STOP',
              index: 0,
            },
          ],
          usageMetadata: { promptTokenCount: 8, candidatesTokenCount: 2, totalTokenCount: 10 },
          modelVersion: 'gemini-2.5-flash',
          responseId: '#1',
        },
      ],
    },
    textStream: {
      path: '/vertex/v1/projects/sim-project/locations/us-central1/publishers/google/models/gemini-2.5-flash:streamGenerateContent',
      upstream: {
        contents: [{ role: 'user', parts: [{ text: 'golden words' }] }],
        generationConfig: { maxOutputTokens: 64 },
      },
      answer: [
        {
          candidates: [{ content: { role: 'model', parts: [{ text: 'echo:' }] }, index: 0 }],
          modelVersion: 'gemini-2.5-flash',
          responseId: '#1',
        },
        {
          candidates: [{ content: { role: 'model', parts: [{ text: ' golden' }] }, index: 0 }],
          modelVersion: 'gemini-2.5-flash',
          responseId: '#1',
        },
        {
          candidates: [{ content: { role: 'model', parts: [{ text: ' words' }] }, finishReason: 'STOP', index: 0 }],
          usageMetadata: { promptTokenCount: 2, candidatesTokenCount: 3, totalTokenCount: 5 },
          modelVersion: 'gemini-2.5-flash',
          responseId: '#1',
        },
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
          { role: 'user', content: 'What is the weather in Paris?' },
          {
            role: 'assistant',
            tool_calls: [
              { id: 'call_0', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
            ],
          },
          { role: 'tool', tool_call_id: 'call_0', content: '{"content":"sunny, 21C"}' },
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
        candidates: [
          {
            content: {
              role: 'model',
              parts: [
                { text: 'Let me think about this request.', thought: true },
                { text: 'I will call get_time.' },
                { functionCall: { name: 'get_time', args: { city: 'Paris' } } },
              ],
            },
            finishReason: 'STOP',
            index: 0,
          },
        ],
        usageMetadata: { promptTokenCount: 13, candidatesTokenCount: 2, totalTokenCount: 15 },
        modelVersion: 'command-r',
        responseId: '#1',
      },
    },
    toolStream: {
      path: '/cohere/v2/chat',
      upstream: {
        model: 'command-r',
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
        {
          candidates: [
            {
              content: { role: 'model', parts: [{ text: 'Let me think about this request.', thought: true }] },
              index: 0,
            },
          ],
          modelVersion: 'command-r',
          responseId: '#1',
        },
        {
          candidates: [{ content: { role: 'model', parts: [{ text: 'I will call get_weather.' }] }, index: 0 }],
          modelVersion: 'command-r',
          responseId: '#1',
        },
        {
          candidates: [
            {
              content: { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { city: 'Paris' } } }] },
              finishReason: 'STOP',
              index: 0,
            },
          ],
          usageMetadata: { promptTokenCount: 8, candidatesTokenCount: 2, totalTokenCount: 10 },
          modelVersion: 'command-r',
          responseId: '#1',
        },
      ],
    },
    textStream: {
      path: '/cohere/v2/chat',
      upstream: {
        model: 'command-r',
        messages: [{ role: 'user', content: 'golden words' }],
        max_tokens: 64,
        stream: true,
      },
      answer: [
        {
          candidates: [{ content: { role: 'model', parts: [{ text: 'echo:' }] }, index: 0 }],
          modelVersion: 'command-r',
          responseId: '#1',
        },
        {
          candidates: [{ content: { role: 'model', parts: [{ text: ' golden' }] }, index: 0 }],
          modelVersion: 'command-r',
          responseId: '#1',
        },
        {
          candidates: [{ content: { role: 'model', parts: [{ text: ' words' }] }, index: 0 }],
          modelVersion: 'command-r',
          responseId: '#1',
        },
        {
          candidates: [{ content: { role: 'model', parts: [{ text: '' }] }, finishReason: 'STOP', index: 0 }],
          usageMetadata: { promptTokenCount: 2, candidatesTokenCount: 3, totalTokenCount: 5 },
          modelVersion: 'command-r',
          responseId: '#1',
        },
      ],
    },
  },
};
