import { CircuitBreakerPolicyCreateRequest } from '../../api/constraints.gen';
import type { Schema } from '../../api/schemas';

export type PolicyView = Schema<'CircuitBreakerPolicy'>;
export type PolicyCreate = Schema<'CircuitBreakerPolicyCreateRequest'>;
export type OpenCircuit = Schema<'OpenCircuit'>;
type ProviderId = PolicyCreate['primary_provider'];

export const PROVIDERS = (CircuitBreakerPolicyCreateRequest.properties.primary_provider?.enum ?? []) as string[];

/** A circuit's key, read: the policy's main circuit (`<policy>`), or a key's sub-circuit (`<policy>\0<key id>`). */
export function circuitOf(key: string): { policy: string; keyId?: string } {
  const at = key.indexOf('\u0000');
  return at < 0 ? { policy: key } : { policy: key.slice(0, at), keyId: key.slice(at + 1) };
}

/** How a signal reads: `x-overloaded = true`, `retry-after contains 60`, or `x-overloaded present`. */
export function signalText(signal: Schema<'CircuitBreakerSignal'>): string {
  if (signal.header_value !== undefined) return `${signal.header_name} = ${signal.header_value}`;
  if (signal.header_contains !== undefined) return `${signal.header_name} contains ${signal.header_contains}`;
  return `${signal.header_name} present`;
}

/** The whole condition in one line: signals joined by their operator. */
export function conditionText(condition: Schema<'CircuitBreakerCondition'>): string {
  return condition.signals.map(signalText).join(` ${condition.operator} `);
}

export type SignalMatch = 'equals' | 'contains' | 'present';

export interface PolicyFormValues extends Record<string, unknown> {
  name: string;
  primary_provider: string;
  primary_model: string;
  fallback_provider: string;
  fallback_model: string;
  operator: 'OR' | 'AND';
  signals: Array<{ header_name: string; match: SignalMatch; text: string }>;
  default_cooldown: string;
  cooldown_header: string;
  enabled: boolean;
}

/** The form's values for a new policy, or for editing `view`. */
export function policyFormValues(view?: PolicyView): PolicyFormValues {
  return {
    name: view?.name ?? '',
    primary_provider: view?.primary_provider ?? 'openai',
    primary_model: view?.primary_model ?? '',
    fallback_provider: view?.fallback_provider ?? 'anthropic',
    fallback_model: view?.fallback_model ?? '',
    operator: view?.condition.operator ?? 'OR',
    signals: view?.condition.signals.map((signal) => ({
      header_name: signal.header_name,
      match:
        signal.header_value !== undefined ? 'equals' : signal.header_contains !== undefined ? 'contains' : 'present',
      text: signal.header_value ?? signal.header_contains ?? '',
    })) ?? [{ header_name: '', match: 'equals', text: '' }],
    default_cooldown: view?.default_cooldown ?? '30s',
    cooldown_header: view?.cooldown_header ?? '',
    enabled: view?.enabled ?? true,
  };
}

/** The request the form's values stand for (create; a replace takes the same minus nothing but the name's role). */
export function policyRequest(values: PolicyFormValues): PolicyCreate {
  return {
    name: values.name.trim(),
    primary_provider: values.primary_provider as ProviderId,
    primary_model: values.primary_model.trim(),
    fallback_provider: values.fallback_provider as ProviderId,
    fallback_model: values.fallback_model.trim(),
    condition: {
      operator: values.operator,
      signals: values.signals.map((signal) => ({
        source: 'response_header' as const,
        header_name: signal.header_name.trim(),
        ...(signal.match === 'equals' ? { header_value: signal.text } : {}),
        ...(signal.match === 'contains' ? { header_contains: signal.text } : {}),
      })),
    },
    default_cooldown: values.default_cooldown.trim() || '30s',
    cooldown_header: values.cooldown_header.trim() || null,
    enabled: values.enabled,
  };
}

/** The form's own checks beyond the constraints: a primary that is its own fallback, a match without its text. */
export function policyProblems(values: PolicyFormValues): Record<string, string> {
  const problems: Record<string, string> = {};
  if (
    values.primary_provider === values.fallback_provider &&
    values.primary_model.trim() !== '' &&
    values.primary_model.trim() === values.fallback_model.trim()
  )
    problems.fallback_model = 'The fallback must differ from the primary';
  values.signals.forEach((signal, index) => {
    if (!signal.header_name.trim()) problems[`signals.${index}.header_name`] = 'A header name is required';
    if (signal.match !== 'present' && !signal.text) problems[`signals.${index}.text`] = 'What to match is required';
  });
  return problems;
}
