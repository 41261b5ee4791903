import type { Admission } from '../../governance/index.js';
import type { GatewayException } from '../../../core/errors/gateway.exception.js';
import type { Usage } from '../providers/shared/provider-adapter.js';

/*
 * Budget settlement, the only place a reservation is committed or released (lint rule `settle` in eslint.config.js).
 * A reservation is made per model attempt by the router (governance's `admit`) or for a plugin's answer by
 * `AnsweredRequestLimits`; `Admission` settles once, so a second settlement of the same reservation is a no-op.
 */

/** A model the router gave up on (it failed, or the request failed on it): nothing was used, the reservation goes. */
export function releaseUnused(admission: Admission | undefined): void {
  admission?.release();
}

/** A unary answer: the cost charged to budgets is the one logged and sent in `x-gateway-cost-usd`. */
export function settleServed(admission: Admission | undefined, usage: Usage | undefined): void {
  admission?.commit({ costUsd: usage?.cost?.total_cost, tokens: usage?.total_tokens });
}

/**
 * A stream's end, on its final usage: a stream that failed after usage was reported is billed too; one cut off by the
 * client before its usage is charged the estimate (commit with nothing known); one the provider failed without usage
 * nothing.
 */
export function settleStreamed(
  admission: Admission | undefined,
  end: { usage: Usage | undefined; failure: GatewayException | undefined; cancelled: boolean },
): void {
  if (end.failure && !end.cancelled && !end.usage) admission?.release();
  else settleServed(admission, end.usage);
}

/** A plugin's answer (a cache hit) counted as one request: it cost nothing and used no tokens. */
export function settleAnswered(admission: Admission | undefined): void {
  admission?.commit({ costUsd: 0, tokens: 0 });
}

/** A request that failed: a reservation it still holds (none once the router gave the model up) goes. */
export function settleFailed(admission: Admission | undefined): void {
  admission?.release();
}
