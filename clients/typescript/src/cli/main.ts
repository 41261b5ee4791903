import { parseArgs } from 'node:util';
import { GLOBAL_OPTIONS, ROOT } from './commands.js';
import { helpText, usageLine } from './help.js';
import { UsageError, type CommandSpec, type Invocation, type Options } from './spec.js';

/** The command path named by argv's leading words, skipping global options (and their values). */
function findCommand(argv: readonly string[]): { path: string[]; command: CommandSpec } {
  const path: string[] = [];
  let command = ROOT;
  for (let i = 0; i < argv.length; i += 1) {
    const token = argv[i]!;
    if (token === '--') break;
    if (token.startsWith('-')) {
      const name = token.startsWith('--') ? token.slice(2).split('=')[0]! : token.slice(1);
      const spec = GLOBAL_OPTIONS[name] ?? Object.values(GLOBAL_OPTIONS).find((o) => o.short === name);
      if (spec?.type === 'string' && !token.includes('=')) i += 1;
      continue;
    }
    const next = command.subcommands?.find((c) => c.name === token);
    if (!next) break;
    path.push(token);
    command = next;
  }
  return { path, command };
}

function parse(argv: readonly string[], path: string[], command: CommandSpec): Invocation {
  const options: Options = { ...GLOBAL_OPTIONS, ...command.options };
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      options: Object.fromEntries(
        Object.entries(options).map(([name, o]) => [
          name,
          { type: o.type, ...(o.short ? { short: o.short } : {}), ...(o.multiple ? { multiple: true } : {}) },
        ]),
      ),
      allowPositionals: true,
      strict: true,
    });
  } catch (e) {
    throw new UsageError((e as Error).message.replace(/^TypeError \[[A-Z_]+\]: /, ''), path);
  }
  const positionals = parsed.positionals.slice(path.length);
  for (const [name, value] of Object.entries(parsed.values)) {
    const choices = options[name]?.choices;
    if (choices && typeof value === 'string' && !choices.includes(value)) {
      throw new UsageError(`--${name} must be one of ${choices.join(', ')} (got '${value}')`, path);
    }
  }
  return { path, args: positionals, options: parsed.values as Invocation['options'] };
}

function checkArgs(invocation: Invocation, command: CommandSpec): void {
  const declared = command.args ?? [];
  const required = declared.filter((a) => a.startsWith('<')).length;
  if (invocation.args.length < required) {
    const missing = declared.slice(invocation.args.length).filter((a) => a.startsWith('<'));
    throw new UsageError(`missing ${missing.join(' ')}`, invocation.path);
  }
  if (invocation.args.length > declared.length) {
    throw new UsageError(`unexpected argument '${invocation.args[declared.length]}'`, invocation.path);
  }
}

async function main(argv: string[]): Promise<number> {
  if (argv.length === 1 && argv[0] === '--version') {
    const { createRequire } = await import('node:module');
    const pkg = createRequire(import.meta.url)('../../package.json') as { version: string };
    process.stdout.write(`${pkg.version}\n`);
    return 0;
  }
  if (argv[0] === '__complete') {
    const { candidates } = await import('./commands/completion.js');
    process.stdout.write(`${candidates(argv.slice(1)).join('\n')}\n`);
    return 0;
  }
  const { path, command } = findCommand(argv);
  const invocation = parse(argv, path, command);
  if (invocation.options.help || (path.length === 0 && invocation.args.length === 0)) {
    process.stdout.write(helpText(path, command));
    return 0;
  }
  if (!command.load) {
    const unknown = invocation.args[0];
    throw new UsageError(unknown ? `unknown command '${unknown}'` : 'missing command', path);
  }
  checkArgs(invocation, command);
  const handler = await command.load();
  return (await handler(invocation)) ?? 0;
}

function usageFailure(error: UsageError): number {
  const { command } = findCommand(error.command ?? []);
  process.stderr.write(`gatewayctl: ${error.message}\n${usageLine(error.command ?? [], command)}\n`);
  process.stderr.write(`Run 'gatewayctl ${[...(error.command ?? []), '--help'].join(' ')}' for help.\n`);
  return 2;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  async (error: unknown) => {
    if (error instanceof UsageError) {
      process.exitCode = usageFailure(error);
      return;
    }
    const { reportFailure } = await import('./failure.js');
    process.exitCode = reportFailure(error);
  },
);
