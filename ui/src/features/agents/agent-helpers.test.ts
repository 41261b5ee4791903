import { describe, expect, it } from 'vitest';
import {
  agentFormValues,
  agentRequest,
  authFieldOf,
  authLines,
  authProblems,
  cardSummary,
  KEEP_SECRET,
  type AgentView,
} from './agent-helpers';
import { agentsSearchOf, historyQueryOf, readAgentsSearch } from './agents-search';

const redacted = { value: '<REDACTED>', ref: '', type: 'plain_text' as const };

const stored: AgentView = {
  name: 'travel',
  agent_card_url: 'http://127.0.0.1:9/.well-known/agent-card.json',
  enabled: true,
  allow_by_default: false,
  forward_accepted_credential: false,
  forward_accepted_credential_overrides_auth: false,
  runtime_auth: {
    type: 'headers',
    headers: { Authorization: redacted, 'X-Env': { ...redacted, type: 'env', ref: 'env.TOKEN' } },
  },
  extension_uris: ['https://example.com/ext'],
  virtual_key_ids: ['vk-1'],
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
};

describe('agents: the card', () => {
  it('reads the name, skills and the capabilities turned on; ignores what is not the right shape', () => {
    const card = cardSummary({
      name: 'Test Agent',
      description: 'echoes',
      version: '1.0.0',
      capabilities: { streaming: true, pushNotifications: false, extendedAgentCard: true },
      skills: [{ id: 'echo', name: 'Echo', description: 'Echoes', tags: ['test', 3] }, 'junk', { id: 'bare' }],
    });
    expect(card.name).toBe('Test Agent');
    expect(card.capabilities).toEqual(['Streaming', 'Extended card']);
    expect(card.skills).toEqual([
      { id: 'echo', name: 'Echo', description: 'Echoes', tags: ['test'] },
      { id: 'bare', name: 'bare', description: '', tags: [] },
    ]);
    expect(cardSummary({ skills: 'no', capabilities: null })).toMatchObject({ skills: [], capabilities: [] });
  });
});

describe('agents: upstream authentication', () => {
  it('reads redacted, with the source of a reference, never a value', () => {
    expect(authLines(stored.runtime_auth)).toEqual([
      'Header Authorization: Redacted',
      'Header X-Env: Redacted (env.TOKEN)',
    ]);
    expect(authLines(undefined)).toEqual(['None']);
  });

  it('a new agent: typed header values sent, no authentication left out', () => {
    const values = agentFormValues();
    values.name = ' travel ';
    values.agent_card_url = 'http://a/card.json';
    values.runtime_auth = {
      type: 'headers',
      headers: [{ name: 'Authorization', value: 'Bearer t', stored: '', source: '' }],
    };
    expect(agentRequest(values)).toEqual({
      name: 'travel',
      agent_card_url: 'http://a/card.json',
      enabled: true,
      allow_by_default: false,
      virtual_key_ids: [],
      runtime_auth: { type: 'headers', headers: { Authorization: 'Bearer t' } },
    });
  });

  it('an edit: stored headers left empty kept as <REDACTED>, a typed one replaced, a removed one gone', () => {
    const values = agentFormValues(stored);
    expect(values.runtime_auth.headers.map((h) => h.value)).toEqual(['', '']);
    values.runtime_auth.headers = values.runtime_auth.headers.filter((h) => h.name !== 'X-Env');
    values.runtime_auth.headers.push({ name: 'X-New', value: 'v', stored: '', source: '' });
    const request = agentRequest(values, stored);
    expect(request.runtime_auth).toEqual({ type: 'headers', headers: { Authorization: KEEP_SECRET, 'X-New': 'v' } });
    expect(request.extension_uris).toEqual(['https://example.com/ext']);
    expect(request.discovery_auth).toBeUndefined();
  });

  it('an edit that turns the authentication off sends none; a stored OAuth setup is sent back with its secrets kept', () => {
    const values = agentFormValues(stored);
    values.runtime_auth.type = 'none';
    expect(agentRequest(values, stored).runtime_auth).toEqual({ type: 'none' });
    const oauth: AgentView = {
      ...stored,
      runtime_auth: { type: 'oauth', oauth: { client_id: redacted, client_secret: redacted, token_url: 'http://t' } },
    };
    expect(agentRequest(agentFormValues(oauth), oauth).runtime_auth).toEqual({
      type: 'oauth',
      oauth: { client_id: KEEP_SECRET, client_secret: KEEP_SECRET, token_url: 'http://t' },
    });
  });

  it('a new header needs a value; headers need at least one row; API params land on the row', () => {
    const values = agentFormValues();
    values.runtime_auth = { type: 'headers', headers: [{ name: 'X', value: '', stored: '', source: '' }] };
    values.discovery_auth = { type: 'headers', headers: [] };
    expect(authProblems(values)).toEqual({
      'runtime_auth.headers.0.value': 'Type the value',
      'discovery_auth.type': 'Add at least one header, or choose None',
    });
    expect(authFieldOf('runtime_auth.headers.X', values)).toBe('runtime_auth.headers.0.value');
    expect(authFieldOf('runtime_auth.security_schemes', values)).toBe('runtime_auth.type');
    expect(authFieldOf('agent_card_url', values)).toBeUndefined();
  });
});

describe('agents: the URL', () => {
  it('keeps the history filters and the open entry, drops defaults and junk', () => {
    const search = readAgentsSearch({
      agent_names: 'travel',
      statuses: 'error',
      limit: '25',
      offset: '0',
      limit2: 'x',
    });
    expect(agentsSearchOf(search)).toEqual({ agent_names: 'travel', statuses: 'error' });
    expect(historyQueryOf({ ...search, entry: 'abc' })).toEqual({
      agent_names: 'travel',
      statuses: 'error',
      limit: 25,
      offset: 0,
    });
  });
});
