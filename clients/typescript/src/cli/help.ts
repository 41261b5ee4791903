import { GLOBAL_OPTIONS } from './commands.js';
import type { CommandSpec, Options } from './spec.js';

function optionLines(options: Options): string[] {
  const rows = Object.entries(options).map(([name, spec]) => {
    const flag = `${spec.short ? `-${spec.short}, ` : '    '}--${name}${spec.type === 'string' ? ` ${spec.value ?? '<value>'}` : ''}`;
    return [flag, spec.description + (spec.multiple ? ' (repeatable)' : '')] as const;
  });
  const width = Math.min(34, Math.max(...rows.map(([flag]) => flag.length)));
  return rows.map(([flag, text]) => `  ${flag.padEnd(width)}  ${text}`);
}

/** The usage line of a command path. */
export function usageLine(path: readonly string[], command: CommandSpec): string {
  const parts = ['gatewayctl', ...path];
  if (command.subcommands?.length) parts.push('<command>');
  parts.push(...(command.args ?? []));
  parts.push('[options]');
  return `Usage: ${parts.join(' ')}`;
}

/** The help text of a command (every command has one: `--help`). */
export function helpText(path: readonly string[], command: CommandSpec): string {
  const lines = [usageLine(path, command), '', command.description ?? command.summary];
  if (command.subcommands?.length) {
    lines.push('', 'Commands:');
    const width = Math.max(...command.subcommands.map((c) => c.name.length));
    for (const sub of command.subcommands) lines.push(`  ${sub.name.padEnd(width)}  ${sub.summary}`);
    lines.push('', `Run 'gatewayctl ${[...path, '<command>'].join(' ')} --help' for a command's options.`);
  }
  if (command.options && Object.keys(command.options).length)
    lines.push('', 'Options:', ...optionLines(command.options));
  lines.push('', 'Global options:', ...optionLines(GLOBAL_OPTIONS));
  if (command.examples?.length) lines.push('', 'Examples:', ...command.examples.map((e) => `  ${e}`));
  return `${lines.join('\n')}\n`;
}
