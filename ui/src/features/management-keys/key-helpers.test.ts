import { describe, expect, it } from 'vitest';
import { localInputOf } from '../virtual-keys/virtual-key-values';
import {
  createKeyRequest,
  keyProblems,
  keyState,
  keyValues,
  updateKeyRequest,
  type ManagementKey,
} from './key-helpers';

const stored: ManagementKey = {
  id: 'k1',
  name: 'ci-deployer',
  scopes: ['Logs:View'],
  expires_at: null,
  last_used_at: null,
  created_at: '2026-01-01T00:00:00Z',
};
const NOW = Date.parse('2026-06-01T00:00:00Z');

describe('management keys', () => {
  it('creates with sorted scopes, and an expiry only when one is typed', () => {
    const values = { name: ' ci ', scopes: ['Teams:View', 'Logs:View'], expires_at: '' };
    expect(createKeyRequest(values)).toEqual({ name: 'ci', scopes: ['Logs:View', 'Teams:View'] });
    const at = '2031-02-03T04:05:00Z';
    expect(createKeyRequest({ ...values, expires_at: localInputOf(at) }).expires_at).toBe(at);
  });

  it('an edit replaces the scopes and sends the name and expiry when they changed; emptied: no expiry', () => {
    expect(updateKeyRequest(keyValues(stored), stored)).toEqual({ scopes: ['Logs:View'] });
    expect(updateKeyRequest({ ...keyValues(stored), name: 'renamed' }, stored)).toEqual({
      name: 'renamed',
      scopes: ['Logs:View'],
    });
    const expiring = { ...stored, expires_at: '2031-01-01T00:00:00Z' };
    expect('expires_at' in updateKeyRequest(keyValues(expiring), expiring)).toBe(false);
    expect(updateKeyRequest({ ...keyValues(expiring), expires_at: '' }, expiring).expires_at).toBeNull();
  });

  it('refuses a past expiry and an empty scope list, but keeps a stored expiry as it is', () => {
    expect(
      keyProblems(
        { name: 'x', scopes: ['Logs:View'], expires_at: localInputOf('2026-05-01T00:00:00Z') },
        undefined,
        NOW,
      ),
    ).toEqual({
      expires_at: 'Must be in the future',
    });
    expect(keyProblems({ name: 'x', scopes: [], expires_at: '' }, undefined, NOW)).toHaveProperty('scopes');
    const past = { ...stored, expires_at: '2026-05-01T00:00:00Z' };
    expect(keyProblems(keyValues(past), past, NOW)).toEqual({});
  });

  it('a key past its expiry is expired', () => {
    expect(keyState({ expires_at: null }, NOW)).toBe('active');
    expect(keyState({ expires_at: '2026-07-01T00:00:00Z' }, NOW)).toBe('active');
    expect(keyState({ expires_at: '2026-05-01T00:00:00Z' }, NOW)).toBe('expired');
  });
});
