import { formatCost, formatNumber } from '../../shared/format/format';

/** How full a limit is, 0–100 (over the limit shows full), and the colour a person reads it by. */
export function usage(used: number | null | undefined, limit: number | null | undefined) {
  const spent = used ?? 0;
  const percent = !limit ? (spent > 0 ? 100 : 0) : Math.min(100, Math.max(0, (spent / limit) * 100));
  const color = percent >= 90 ? 'red' : percent >= 75 ? 'yellow' : 'green';
  return { percent, color };
}

/** `$0.000123 of $5.00` (a budget) or `12 of 100 requests` (a rate limit), with the exact amounts. */
export function usageLabel(
  used: number | null | undefined,
  limit: number | null | undefined,
  unit: 'usd' | 'requests' | 'tokens',
  locale?: string,
): string {
  if (unit === 'usd') return `${formatCost(used ?? 0, { locale })} of ${formatCost(limit, { locale })}`;
  return `${formatNumber(used ?? 0, { locale })} of ${formatNumber(limit, { locale })} ${unit}`;
}

/** What owns a limit, as a person reads it: the key itself, its team, a provider config… */
export function levelLabel(level: string, name: string): string {
  switch (level) {
    case 'virtual_key':
      return 'This key';
    case 'provider_config':
      return `Provider ${name} on this key`;
    case 'team':
      return `Team ${name}`;
    case 'customer':
      return `Customer ${name}`;
    case 'provider':
      return `Provider ${name} (all keys)`;
    case 'model_config':
      return `Model ${name}`;
    default:
      return name;
  }
}
