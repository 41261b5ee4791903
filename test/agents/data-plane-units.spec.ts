import { describe, expect, it } from 'vitest';
import { taskInfoOf } from '../../src/modules/agents/data-plane/a2a-wire.js';
import { rewriteAgentCard } from '../../src/modules/agents/data-plane/card-rewriter.js';
import { matchRestRoute } from '../../src/modules/agents/data-plane/a2a-wire.js';
import { buildUpstreamHeaders } from '../../src/modules/agents/data-plane/upstream-headers.js';
import { redactPayload } from '../../src/core/secrets/payload-redaction.js';

describe('HTTP+JSON route matching', () => {
  it.each([
    ['POST', 'message:send', 'SendMessage', undefined],
    ['POST', 'message:stream', 'SendStreamingMessage', undefined],
    ['GET', 'tasks', 'ListTasks', undefined],
    ['GET', 'tasks/t%2F1', 'GetTask', 't/1'],
    ['POST', 'tasks/t1:cancel', 'CancelTask', 't1'],
    ['GET', 'tasks/t1:subscribe', 'SubscribeToTask', 't1'],
    ['POST', 'tasks/t1:subscribe', 'SubscribeToTask', 't1'],
    ['POST', 'tasks/t1/pushNotificationConfigs', 'CreateTaskPushNotificationConfig', 't1'],
    ['GET', 'tasks/t1/pushNotificationConfigs', 'ListTaskPushNotificationConfigs', 't1'],
    ['GET', 'tasks/t1/pushNotificationConfigs/c1', 'GetTaskPushNotificationConfig', 't1'],
    ['DELETE', 'tasks/t1/pushNotificationConfigs/c1', 'DeleteTaskPushNotificationConfig', 't1'],
    ['GET', 'extendedAgentCard', 'GetExtendedAgentCard', undefined],
    ['GET', 'acme/tasks/t1', 'GetTask', 't1'],
  ])('%s %s → %s', (method, path, operation, taskId) => {
    const route = matchRestRoute(method, path);
    expect(route?.operation).toBe(operation);
    expect(route?.taskId).toBe(taskId);
  });

  it('strips a caller tenant prefix from the forwarded path and refuses non-operations', () => {
    expect(matchRestRoute('GET', 'acme/tasks/t1')?.path).toBe('tasks/t1');
    expect(matchRestRoute('DELETE', 'tasks/t1')).toBeUndefined();
    expect(matchRestRoute('GET', 'v1/admin')).toBeUndefined();
    expect(matchRestRoute('PUT', 'message:send')).toBeUndefined();
  });
});

describe('upstream headers', () => {
  const base = {
    requestId: 'rid',
    runtimeAuth: { Authorization: 'Bearer rt', 'X-Key': 'k' },
    forwardOverridesAuth: false,
    allowedExtensions: new Set(['urn:a']),
  };

  it('drops hop-by-hop, Connection-listed, credential and cookie headers', () => {
    const h = buildUpstreamHeaders({
      ...base,
      incoming: {
        connection: 'close, x-secret-hop',
        'x-secret-hop': '1',
        te: 'trailers',
        cookie: 'a=b',
        'x-api-key': 'sk-gw-x',
        'x-gateway-vk': 'sk-gw-y',
        authorization: 'Bearer sk-gw-z',
        host: 'gw',
        'content-length': '10',
        'x-other': 'ok',
      },
    });
    expect(h).toEqual({
      'x-other': 'ok',
      'a2a-version': '1.0',
      'accept-encoding': 'identity',
      'x-request-id': 'rid',
      authorization: 'Bearer rt',
      'x-key': 'k',
    });
  });

  it('forwarded credential: runtime wins, unless it overrides', () => {
    const incoming = { 'a2a-extensions': 'urn:a, urn:b' };
    const kept = buildUpstreamHeaders({ ...base, incoming, forwardedCredential: 'sk-gw-v' });
    expect(kept.authorization).toBe('Bearer rt');
    expect(kept['a2a-extensions']).toBe('urn:a');
    const noRuntimeAuth = buildUpstreamHeaders({ ...base, runtimeAuth: {}, incoming, forwardedCredential: 'sk-gw-v' });
    expect(noRuntimeAuth.authorization).toBe('Bearer sk-gw-v');
    const overrides = buildUpstreamHeaders({
      ...base,
      incoming,
      forwardedCredential: 'sk-gw-v',
      forwardOverridesAuth: true,
    });
    expect(overrides.authorization).toBe('Bearer sk-gw-v');
    expect(overrides['x-key']).toBeUndefined();
  });
});

describe('card rewrite', () => {
  it('keeps the upstream binding order and drops push when unsupported', () => {
    const card = rewriteAgentCard({
      card: {
        name: 'x',
        supportedInterfaces: [
          { url: 'http://u/rest', protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
          { url: 'http://u/rpc', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
        ],
        capabilities: { pushNotifications: false, streaming: false, extensions: [{ uri: 'urn:x', required: false }] },
        skills: [{ id: 's', securityRequirements: [{}] }],
        url: 'http://u/legacy',
      },
      agentBaseUrl: 'https://gw/agents/a2a/x',
      hasJsonRpc: true,
      hasRest: true,
      extensionUris: [],
    });
    expect((card.supportedInterfaces as any[]).map((i) => i.url)).toEqual([
      'https://gw/agents/a2a/x/rest',
      'https://gw/agents/a2a/x/jsonrpc',
    ]);
    expect(card.capabilities).toEqual({ streaming: false, extensions: [] });
    expect(card.url).toBeUndefined();
    expect((card.skills as any[])[0].securityRequirements).toBeUndefined();
  });
});

describe('payload helpers', () => {
  it('finds task ids in every A2A result shape', () => {
    expect(taskInfoOf({ task: { id: 't', contextId: 'c', status: { state: 'TASK_STATE_WORKING' } } })).toEqual({
      task_id: 't',
      context_id: 'c',
      task_state: 'TASK_STATE_WORKING',
    });
    expect(taskInfoOf({ statusUpdate: { taskId: 't2', status: { state: 'TASK_STATE_COMPLETED' } } }).task_id).toBe(
      't2',
    );
    expect(taskInfoOf({ id: 't3', status: { state: 'TASK_STATE_CANCELED' } }).task_state).toBe('TASK_STATE_CANCELED');
  });

  it('redacts credentials and caps size', () => {
    expect(redactPayload({ a: { token: 'x', Authorization: 'y', url: 'u' } })).toEqual({
      a: { token: '<REDACTED>', Authorization: '<REDACTED>', url: 'u' },
    });
    const big = redactPayload({ text: 'x'.repeat(100_000) }) as any;
    expect(big.truncated).toBe(true);
    expect(big.preview.length).toBe(64 * 1024);
    // Measured by its JSON: 20,000 characters fit, 11,000 control characters (six each as JSON escapes) do not.
    expect(redactPayload({ text: 'x'.repeat(20_000), n: 1 })).toEqual({ text: 'x'.repeat(20_000), n: 1 });
    const escaped = redactPayload({ text: '\u0001'.repeat(11_000) }) as any;
    expect(escaped.truncated).toBe(true);
    expect(escaped.original_chars).toBe(JSON.stringify({ text: '\u0001'.repeat(11_000) }).length);
  });
});
