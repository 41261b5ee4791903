import { GLOBAL_OPTIONS, ROOT } from '../commands.js';
import { UsageError, type CommandSpec, type Invocation } from '../spec.js';

const SCRIPTS: Record<string, string> = {
  bash: `# gatewayctl completion for bash: source <(gatewayctl completion bash)
_gatewayctl() {
  local cur="\${COMP_WORDS[COMP_CWORD]}"
  local IFS=$'\\n'
  COMPREPLY=( $(compgen -W "$(gatewayctl __complete "\${COMP_WORDS[@]:1:COMP_CWORD-1}" 2>/dev/null)" -- "$cur") )
}
complete -o default -F _gatewayctl gatewayctl
`,
  zsh: `#compdef gatewayctl
# gatewayctl completion for zsh: source <(gatewayctl completion zsh)
_gatewayctl() {
  local -a candidates
  candidates=("\${(@f)$(gatewayctl __complete "\${(@)words[2,CURRENT-1]}" 2>/dev/null)}")
  compadd -a candidates
}
compdef _gatewayctl gatewayctl
`,
  fish: `# gatewayctl completion for fish: gatewayctl completion fish > ~/.config/fish/completions/gatewayctl.fish
complete -c gatewayctl -f -a '(gatewayctl __complete (commandline -opc)[2..-1] 2>/dev/null)'
`,
};

/** `gatewayctl completion <shell>`: the script, which asks `gatewayctl __complete` for candidates. */
export async function run(invocation: Invocation): Promise<number> {
  const shell = invocation.args[0]!;
  const script = SCRIPTS[shell];
  if (!script) throw new UsageError(`unknown shell '${shell}' (bash, zsh or fish)`, invocation.path);
  process.stdout.write(script);
  return 0;
}

/** The words that may follow `words` (the command line so far, without the word being completed). */
export function candidates(words: readonly string[]): string[] {
  let command: CommandSpec = ROOT;
  for (const word of words) {
    if (word.startsWith('-')) continue;
    const next = command.subcommands?.find((c) => c.name === word);
    if (next) command = next;
  }
  const options = { ...GLOBAL_OPTIONS, ...command.options };
  const last = words.at(-1);
  if (last?.startsWith('--')) {
    const choices = options[last.slice(2)]?.choices;
    if (choices) return [...choices];
  }
  return [...(command.subcommands ?? []).map((c) => c.name), ...Object.keys(options).map((name) => `--${name}`)];
}
