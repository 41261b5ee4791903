import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClientFactory, JsonRpcTransportFactory, RestTransportFactory } from '@a2a-js/sdk/client';
import { type A2aAgent, startA2aAgent, STREAM_001_EVENT_KINDS } from '../helpers/a2a-agent.js';
import { userMessage } from './data-plane-kit.js';

// Proves the upstream test agent itself behaves (so gateway suites can trust it).
describe('test A2A agent helper', () => {
  let agent: A2aAgent;
  beforeAll(async () => {
    agent = await startA2aAgent({ extensions: [{ uri: 'https://example.com/ext/a' }] });
  });
  afterAll(() => agent.close());

  it('serves a spec-shaped card', async () => {
    const res = await fetch(agent.cardUrl, { headers: { 'A2A-Version': '1.0' } });
    const card = (await res.json()) as Record<string, any>;
    expect(card.supportedInterfaces[0]).toEqual({
      url: agent.jsonrpcUrl,
      protocolBinding: 'JSONRPC',
      protocolVersion: '1.0',
    });
    expect(card.supportedInterfaces[1].protocolBinding).toBe('HTTP+JSON');
    expect(card.capabilities).toMatchObject({ streaming: true, pushNotifications: true });
    expect(card.capabilities.extensions[0].uri).toBe('https://example.com/ext/a');
  });

  for (const transport of ['JSONRPC', 'HTTP+JSON'] as const) {
    it(`answers send and stream over ${transport}`, async () => {
      const factory = new ClientFactory({
        transports: [new JsonRpcTransportFactory(), new RestTransportFactory()],
        preferredTransports: [transport],
      });
      const client = await factory.createFromUrl(agent.cardUrl, '');
      const sent = (await client.sendMessage(userMessage(`tck-complete-task-${transport}`))) as any;
      expect(sent.status.state).toBe(3);
      const events: string[] = [];
      for await (const ev of client.sendMessageStream(userMessage(`tck-stream-001-${transport}`))) {
        events.push(ev.payload!.$case);
      }
      expect(events).toEqual([...STREAM_001_EVENT_KINDS]);
      const msg = (await client.sendMessage(userMessage(`tck-message-response-${transport}`, 'yo'))) as any;
      expect(msg.parts[0].content.value).toBe('echo: yo');
      expect(agent.protocolRequests().length).toBeGreaterThan(0);
    });
  }
});
