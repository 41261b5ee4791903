import type { CompiledExpression, ExpressionProblem } from './routing-rule-cel.js';

let cel: Promise<typeof import('./routing-rule-cel.js')> | undefined;

/**
 * `compileRule` of routing-rule-cel.ts, with the CEL engine (`@bufbuild/cel` and its protobuf runtime, about 4 MB of
 * V8 heap for as long as the process lives) imported on the first expression compiled: a gateway without routing
 * rules never loads it. Evaluating a compiled expression stays synchronous.
 */
export async function compileRule(expression: string): Promise<CompiledExpression | ExpressionProblem> {
  const { compileRule: compile } = await (cel ??= import('./routing-rule-cel.js'));
  return compile(expression);
}

/** True when the evaluation failed only because a map had no such key (a header or param not sent): no match. */
export function isMissingKey(error: string): boolean {
  return /no such key|field not found/i.test(error);
}
