import type { PluginJson } from '../../plugins/index.js';

/** The kinds whose requests the semantic cache compares (a conversation or a prompt). */
export const SEMANTIC_KINDS: ReadonlySet<string> = new Set(['chat', 'completions', 'responses']);

/** Text of a message content: a string, or the `text` of its text parts. */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) =>
      part && typeof part === 'object' && typeof (part as PluginJson).text === 'string'
        ? (part as PluginJson).text
        : '',
    )
    .filter((text) => text !== '')
    .join('\n');
}

/** The last item of `items` whose role is `user`, as text. */
function lastUserText(items: unknown[]): string {
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i] as PluginJson | undefined;
    if (item && typeof item === 'object' && item.role === 'user') return contentText(item.content);
  }
  return '';
}

/**
 * What the semantic cache embeds: the last user message of a chat or a Responses input, or a completion's prompt.
 * Empty when there is none (the semantic lookup is then skipped).
 */
export function semanticTextOf(kind: string, body: PluginJson): string {
  switch (kind) {
    case 'chat':
      return Array.isArray(body.messages) ? lastUserText(body.messages).trim() : '';
    case 'responses':
      if (typeof body.input === 'string') return body.input.trim();
      return Array.isArray(body.input) ? lastUserText(body.input).trim() : '';
    case 'completions':
      if (typeof body.prompt === 'string') return body.prompt.trim();
      return Array.isArray(body.prompt) && body.prompt.every((p) => typeof p === 'string')
        ? body.prompt.join('\n').trim()
        : '';
    default:
      return '';
  }
}
