import { describe, expect, it } from 'vitest';
import {
  attemptOutcome,
  createRequest,
  DELIVERY_STATUS,
  dueIn,
  headerField,
  headerSource,
  lastError,
  retryState,
  updateRequest,
  webhookFormValues,
  webhookProblems,
  type WebhookView,
} from './webhook-helpers';

const NOW = Date.parse('2026-12-07T12:00:00.000Z');
const inMs = (ms: number) => new Date(NOW + ms).toISOString();

describe('delivery status', () => {
  it('has a label and a colour for every status the API knows', () => {
    expect(Object.keys(DELIVERY_STATUS).sort()).toEqual(['failed', 'pending', 'succeeded']);
    expect(DELIVERY_STATUS.failed).toEqual({ label: 'failed', color: 'red.9' });
  });
});

describe('retryState', () => {
  it('reads a success, a failure with no retry left, and the two pending states with when', () => {
    expect(retryState({ status: 'succeeded', attempt_count: 1, next_attempt_at: null }, NOW)).toBe(
      'Delivered on attempt 1',
    );
    expect(retryState({ status: 'failed', attempt_count: 1, next_attempt_at: null }, NOW)).toBe(
      'Failed after 1 attempt; no retry left',
    );
    expect(retryState({ status: 'failed', attempt_count: 6, next_attempt_at: null }, NOW)).toBe(
      'Failed after 6 attempts; no retry left',
    );
    expect(retryState({ status: 'pending', attempt_count: 0, next_attempt_at: inMs(-5) }, NOW)).toBe(
      'First attempt due now',
    );
    expect(retryState({ status: 'pending', attempt_count: 2, next_attempt_at: inMs(3_200) }, NOW)).toBe(
      'Attempt 2 failed; retry due in 4 s',
    );
    expect(retryState({ status: 'pending', attempt_count: 3, next_attempt_at: inMs(125_000) }, NOW)).toBe(
      'Attempt 3 failed; retry due in 2 min 5 s',
    );
    expect(retryState({ status: 'pending', attempt_count: 1, next_attempt_at: null }, NOW)).toBe(
      'Attempt 1 failed; retry queued',
    );
  });
  it('dueIn says now once due', () => {
    expect(dueIn(inMs(0), NOW)).toBe('now');
    expect(dueIn(inMs(999), NOW)).toBe('in 1 s');
  });
});

describe('attempts', () => {
  it("reads an attempt's outcome and the last error", () => {
    expect(
      attemptOutcome({ attempt: 1, at: '', duration_ms: 3, status_code: 500, error: 'receiver answered HTTP 500' }),
    ).toBe('receiver answered HTTP 500');
    expect(attemptOutcome({ attempt: 2, at: '', duration_ms: 3, status_code: 200 })).toBe('HTTP 200');
    expect(attemptOutcome({ attempt: 3, at: '', duration_ms: 3 })).toBe('no answer');
    expect(
      lastError({
        attempts: [
          { attempt: 1, at: '', duration_ms: 1, error: 'no answer within 1000 ms' },
          { attempt: 2, at: '', duration_ms: 1, error: 'receiver answered HTTP 503', status_code: 503 },
        ],
      }),
    ).toBe('receiver answered HTTP 503');
    expect(lastError({ attempts: [] })).toBe('');
  });
});

const VIEW: WebhookView = {
  id: 'a1b2c3d4-0000-4000-8000-000000000001',
  name: 'job-events',
  url: 'https://hooks.example.com/gateway',
  description: null,
  enabled: true,
  headers: {
    Authorization: { value: '<REDACTED>', ref: 'env.TOKEN', type: 'env' },
    'X-Team': { value: '<REDACTED>', ref: '', type: 'plain_text' },
  },
  secret: '<REDACTED>',
  created_at: '',
  updated_at: '',
};

describe('webhook form', () => {
  it('shows stored headers redacted, never their values', () => {
    expect(headerSource(VIEW.headers.Authorization!)).toBe('Redacted (env.TOKEN)');
    expect(headerSource(VIEW.headers['X-Team']!)).toBe('Redacted');
    expect(webhookFormValues(VIEW).headers).toEqual([
      { name: 'Authorization', value: '', stored: true },
      { name: 'X-Team', value: '', stored: true },
    ]);
  });
  it('creates with trimmed fields and typed headers only', () => {
    const values = {
      ...webhookFormValues(),
      name: ' job-events ',
      url: ' http://127.0.0.1:9/hook ',
      headers: [
        { name: 'Authorization', value: 'Bearer x', stored: false },
        { name: ' ', value: '', stored: false },
      ],
    };
    expect(createRequest(values)).toEqual({
      name: 'job-events',
      url: 'http://127.0.0.1:9/hook',
      enabled: true,
      headers: { Authorization: 'Bearer x' },
    });
    expect(createRequest({ ...values, headers: [] })).not.toHaveProperty('headers');
  });
  it('on an edit keeps a stored header left empty (<REDACTED>), replaces a typed one, drops a removed one', () => {
    const values = {
      ...webhookFormValues(VIEW),
      description: '',
      headers: [
        { name: 'Authorization', value: '', stored: true },
        { name: 'X-New', value: 'v', stored: false },
      ],
    };
    expect(updateRequest(values, VIEW)).toEqual({
      name: 'job-events',
      url: 'https://hooks.example.com/gateway',
      description: null,
      enabled: true,
      headers: { Authorization: '<REDACTED>', 'X-New': 'v' },
    });
  });
  it('asks for a value where nothing is stored to keep, names and a URL', () => {
    const values = {
      ...webhookFormValues(VIEW),
      url: ' ',
      headers: [
        { name: 'Authorization', value: '', stored: true },
        { name: 'X-Renamed', value: '', stored: true },
        { name: 'authorization', value: 'x', stored: false },
        { name: '', value: 'x', stored: false },
      ],
    };
    expect(webhookProblems(values, Object.keys(VIEW.headers))).toEqual({
      url: 'The URL is required',
      'headers.1.value': 'A value is required',
      'headers.2.name': 'This header is already listed',
      'headers.3.name': 'A header name is required',
    });
  });
  it("lands a refusal naming a header on that header's row", () => {
    const values = { ...webhookFormValues(VIEW), headers: [{ name: 'Host', value: 'x', stored: false }] };
    expect(headerField('headers.Host', values)).toBe('headers.0.name');
    expect(headerField('headers.Other', values)).toBeUndefined();
    expect(headerField('url', values)).toBeUndefined();
  });
});
