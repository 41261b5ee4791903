import { describe, expect, it } from 'vitest';
import {
  ASYNC_JOB_STATUS,
  asyncJobsQueryOf,
  asyncJobsSearchOf,
  jobErrorText,
  readAsyncJobsSearch,
  runTime,
  statusText,
  unfinished,
} from './async-job-helpers';

describe('async job status', () => {
  it('has a label and a colour for every status the API knows, and says which may still change', () => {
    expect(Object.keys(ASYNC_JOB_STATUS)).toEqual(['pending', 'processing', 'completed', 'failed']);
    expect(unfinished({ status: 'pending' })).toBe(true);
    expect(unfinished({ status: 'processing' })).toBe(true);
    expect(unfinished({ status: 'completed' })).toBe(false);
  });
  it('adds the answer status once finished', () => {
    expect(statusText({ status: 'processing', status_code: 202 })).toBe('processing');
    expect(statusText({ status: 'completed', status_code: 200 })).toBe('completed 200');
    expect(statusText({ status: 'failed', status_code: 404 })).toBe('failed 404');
    expect(statusText({ status: 'failed', status_code: null })).toBe('failed');
  });
});

describe('jobErrorText', () => {
  it('reads a GatewayError, a provider body and anything else', () => {
    expect(
      jobErrorText({
        type: 'invalid_request_error',
        error: { message: 'Model not found', type: 'invalid_request_error', code: 'model_not_found' },
      }),
    ).toBe('Model not found (invalid_request_error)');
    expect(jobErrorText({ error: 'overloaded' })).toBe('overloaded');
    expect(jobErrorText({ message: 'bad' })).toBe('bad');
    expect(jobErrorText({ content_type: 'text/plain', text: 'oops' })).toBe(
      '{"content_type":"text/plain","text":"oops"}',
    );
    expect(jobErrorText(undefined)).toBe('');
  });
});

describe('runTime', () => {
  it('is the time from start to completion', () => {
    expect(runTime({ started_at: '2026-12-07T12:00:00.000Z', completed_at: '2026-12-07T12:00:01.500Z' })).toBe('1.5 s');
    expect(runTime({ started_at: '2026-12-07T12:00:00.000Z', completed_at: null })).toBe('');
  });
});

describe('the URL', () => {
  it("reads the API's filters, drops what it cannot read, and leaves defaults out", () => {
    const search = readAsyncJobsSearch({ status: 'failed', type: 'chat/completions', limit: '50', bogus: 'x' });
    expect(search).toEqual({ status: 'failed', type: 'chat/completions', limit: 50 });
    expect(readAsyncJobsSearch({ status: 'done' })).toEqual({});
    expect(asyncJobsSearchOf(search)).toEqual({ status: 'failed', type: 'chat/completions' });
    expect(asyncJobsQueryOf({ status: 'failed' })).toEqual({ status: 'failed', limit: 50, offset: 0 });
  });
});
