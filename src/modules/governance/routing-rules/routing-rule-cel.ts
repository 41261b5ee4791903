import { celEnv, CelScalar, isCelError, mapType, parse, plan, type CelEnv, type CelInput } from '@bufbuild/cel';
import { strings } from '@bufbuild/cel/ext';

/** A parsed expression node (the package's cel-spec type, named through its parser). */
type Expr = NonNullable<ReturnType<typeof parse>['expr']>;

/** The variables a rule's `cel_expression` may read (docs/governance.md "Routing rules"). */
const VARIABLES = {
  model: CelScalar.STRING,
  provider: CelScalar.STRING,
  request_type: CelScalar.STRING,
  headers: mapType(CelScalar.STRING, CelScalar.STRING),
  params: mapType(CelScalar.STRING, CelScalar.STRING),
  virtual_key_id: CelScalar.STRING,
  virtual_key_name: CelScalar.STRING,
  team_id: CelScalar.STRING,
  team_name: CelScalar.STRING,
  customer_id: CelScalar.STRING,
  customer_name: CelScalar.STRING,
  budget_used: CelScalar.DOUBLE,
  tokens_used: CelScalar.DOUBLE,
  request: CelScalar.DOUBLE,
} as const;

export type RuleVariableName = keyof typeof VARIABLES;
/** What a rule is evaluated with; the three usage figures are percentages (0 when no budget or limit applies). */
export type RuleVariables = Record<RuleVariableName, CelInput>;

/** The variables read from the CounterStore: computed only for rules that mention one. */
export const USAGE_VARIABLES: ReadonlySet<string> = new Set(['budget_used', 'tokens_used', 'request']);

/** Operators the planner handles itself rather than through the function table. */
const PLANNER_OPERATORS = new Set([
  '_[_]',
  '_[?_]',
  '_?._',
  '_?_:_',
  '_&&_',
  '_||_',
  '@not_strictly_false',
  '__not_strictly_false__',
]);
/** Type names usable as identifiers (`type(x) == string`). */
const TYPE_NAMES = new Set([
  'int',
  'uint',
  'double',
  'bool',
  'string',
  'bytes',
  'list',
  'map',
  'null_type',
  'type',
  'dyn',
]);

/** One environment for every rule: the variables above, the standard library and the strings extension. */
const ENV: CelEnv = celEnv({ variables: VARIABLES, funcs: strings });

export interface CompiledExpression {
  evaluate(variables: RuleVariables): { matched: boolean } | { error: string };
  /** The expression reads `budget_used`, `tokens_used` or `request`. */
  usesUsage: boolean;
  /** The variables the expression reads. */
  reads: ReadonlySet<string>;
}

/** Where in the expression a problem is: 1-based line and column, 0-based offset (UTF-16 code units). */
export interface ExpressionPosition {
  line: number;
  column: number;
  offset: number;
}

/** Why an expression cannot be used, and where when the parser or the name check can say. */
export interface ExpressionProblem {
  problem: string;
  position?: ExpressionPosition;
}

/** Why an expression cannot be used, or the compiled expression. Parsing and name checks; types are checked when run. */
export function compileRule(expression: string): CompiledExpression | ExpressionProblem {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(expression);
  } catch (err) {
    const location = (err as { location?: { start?: { offset?: number } } }).location?.start?.offset;
    return {
      problem: (err as Error).message.replace(/^<input>:/, 'at '),
      ...(typeof location === 'number' ? { position: positionAt(expression, location) } : {}),
    };
  }
  const root: Expr | undefined = parsed.expr;
  if (!root) return { problem: 'the expression is empty', position: positionAt(expression, 0) };
  const names = new Set<string>();
  const named = checkNames(root, new Set(), names);
  if (named) {
    const offset = parsed.sourceInfo?.positions[named.at.toString()];
    return {
      problem: named.problem,
      ...(typeof offset === 'number' ? { position: positionAt(expression, offset) } : {}),
    };
  }
  let program: ReturnType<typeof plan>;
  try {
    program = plan(ENV, root);
  } catch (err) {
    return { problem: (err as Error).message };
  }
  return {
    usesUsage: [...names].some((n) => USAGE_VARIABLES.has(n)),
    reads: names,
    evaluate(variables) {
      let result: unknown;
      // A missing header is an error inside the evaluator, built as an Error: its stack trace (unused, only the
      // message is read) costs ten times the evaluation itself, so none is captured.
      const stackTraceLimit = Error.stackTraceLimit;
      Error.stackTraceLimit = 0;
      try {
        result = program(variables);
      } catch (err) {
        return { error: (err as Error).message };
      } finally {
        Error.stackTraceLimit = stackTraceLimit;
      }
      if (isCelError(result)) return { error: result.message };
      if (typeof result !== 'boolean') return { error: `the expression gave a ${typeof result}, not a boolean` };
      return { matched: result };
    },
  };
}

/** The line and column (both from 1) of an offset into the expression. */
export function positionAt(expression: string, offset: number): ExpressionPosition {
  const clamped = Math.max(0, Math.min(offset, expression.length));
  const before = expression.slice(0, clamped);
  const lineStart = before.lastIndexOf('\n') + 1;
  return { line: before.split('\n').length, column: clamped - lineStart + 1, offset: clamped };
}

/**
 * Unknown variables and functions are refused at write time (the planner would only fail when run). Comprehension
 * variables (`exists(x, …)`) are in scope inside their comprehension.
 */
/** A name check's refusal and the id of the expression node at fault (its offset is in the parse's source info). */
interface NameProblem {
  problem: string;
  at: bigint;
}

function checkNames(expr: Expr, bound: ReadonlySet<string>, used: Set<string>): NameProblem | undefined {
  const kind = expr.exprKind;
  switch (kind.case) {
    case 'identExpr': {
      const name = kind.value.name;
      if (bound.has(name) || TYPE_NAMES.has(name)) return undefined;
      if (!(name in VARIABLES)) return { problem: `unknown variable '${name}'`, at: expr.id };
      used.add(name);
      return undefined;
    }
    case 'selectExpr':
      return kind.value.operand
        ? checkNames(kind.value.operand, bound, used)
        : { problem: 'a selection without an operand', at: expr.id };
    case 'callExpr': {
      const call = kind.value;
      if (!PLANNER_OPERATORS.has(call.function) && !ENV.funcs.find(call.function)) {
        return { problem: `unknown function '${call.function}'`, at: expr.id };
      }
      for (const part of call.target ? [call.target, ...call.args] : call.args) {
        const problem = checkNames(part, bound, used);
        if (problem) return problem;
      }
      return undefined;
    }
    case 'listExpr':
      for (const element of kind.value.elements) {
        const problem = checkNames(element, bound, used);
        if (problem) return problem;
      }
      return undefined;
    case 'structExpr':
      for (const entry of kind.value.entries) {
        for (const part of [entry.keyKind.case === 'mapKey' ? entry.keyKind.value : undefined, entry.value]) {
          const problem = part ? checkNames(part, bound, used) : undefined;
          if (problem) return problem;
        }
      }
      return undefined;
    case 'comprehensionExpr': {
      const c = kind.value;
      const outer = c.iterRange ? checkNames(c.iterRange, bound, used) : undefined;
      if (outer) return outer;
      const init = c.accuInit ? checkNames(c.accuInit, bound, used) : undefined;
      if (init) return init;
      const inner = new Set([...bound, c.iterVar, c.iterVar2, c.accuVar].filter((v) => v !== ''));
      for (const part of [c.loopCondition, c.loopStep, c.result]) {
        const problem = part ? checkNames(part, inner, used) : undefined;
        if (problem) return problem;
      }
      return undefined;
    }
    case 'constExpr':
    case undefined:
      return undefined;
  }
}
