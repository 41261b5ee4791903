/** What the command table is made of: data only, so `--help` and completion load no handler. */

export interface OptionSpec {
  type: 'string' | 'boolean';
  short?: string;
  multiple?: boolean;
  /** The value's placeholder in help (`<file>`). */
  value?: string;
  description: string;
  /** Allowed values (checked before the handler runs; offered by completion). */
  choices?: readonly string[];
}

export type Options = Record<string, OptionSpec>;

/** What a handler receives: its positional arguments and parsed options (global ones included). */
export interface Invocation {
  path: string[];
  args: string[];
  options: Record<string, string | boolean | string[] | undefined>;
}

/** A handler answers the exit code (0 when it answers nothing). */
export type Handler = (invocation: Invocation) => Promise<number | void>;

export interface CommandSpec {
  name: string;
  summary: string;
  /** Positional arguments as shown in usage (`<id-or-name>`, `[file]`). */
  args?: readonly string[];
  /** How many positional arguments are required (default: those written `<…>`). */
  options?: Options;
  description?: string;
  examples?: readonly string[];
  subcommands?: readonly CommandSpec[];
  /** Loads the handler on demand (lazy import). */
  load?: () => Promise<Handler>;
}

/** A usage mistake: printed with the command's usage line, exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
  constructor(
    message: string,
    readonly command?: string[],
  ) {
    super(message);
  }
}
