import { Injectable } from '@nestjs/common';

/** One open circuit as `GET /api/circuit-breaker/state` shows it (closed circuits are absent). */
export interface OpenCircuitView {
  status: 'open';
  opened_at: string;
  expires_at: string;
  /** The cooldown applied, in integer nanoseconds (as this product family reads durations back). */
  cooldown: number;
  /** The header that tripped it, as the primary sent it. */
  signal: { header_name: string; header_value: string };
}

/** Separates a policy name from a key id in a sub-circuit's key. */
export const SUB_CIRCUIT_SEPARATOR = '\x00';

/**
 * Circuit breakers on the request path (STUB: being written; the management plane codes against this API).
 */
@Injectable()
export class CircuitBreakerEngine {
  /** After a committed policy change: every replica rebuilds its policy snapshot before its next request. */
  async policiesChanged(): Promise<void> {}

  /** The open circuits, by circuit key. */
  async openCircuits(): Promise<Record<string, OpenCircuitView>> {
    return {};
  }

  /** Closes one circuit by hand; false when it was not open. */
  async close(_key: string): Promise<boolean> {
    return false;
  }

  /** Closes a policy's main circuit and every sub-circuit (policy deleted or changed). */
  async discard(_policyName: string): Promise<void> {}
}
