import type { CommandSuggestion } from '../../../state/commands.ts';

/** The trigger being typed: the text up to the caret is `/` and trigger characters, nothing else. */
export function commandQueryAt(text: string, caret: number): string | null {
  const match = /^\/([a-z0-9_-]{0,32})$/i.exec(text.slice(0, caret));
  if (!match) return null;
  // A caret inside a word that goes on (`/de|ploy`) still completes the whole word.
  if (/^[a-z0-9_-]/i.test(text.slice(caret))) return null;
  return match[1]!.toLowerCase();
}

/** Commands whose trigger starts with the query, in the order given, at most `limit`. */
export function commandCandidates(
  commands: readonly CommandSuggestion[],
  query: string,
  limit = 8,
): CommandSuggestion[] {
  const q = query.toLowerCase();
  return commands.filter((c) => c.trigger.startsWith(q)).slice(0, limit);
}

/** The text once a command is chosen: `/trigger ` and the rest of the text, caret after the space. */
export function insertCommand(text: string, caret: number, trigger: string): { text: string; caret: number } {
  const inserted = `/${trigger} `;
  const rest = text.slice(caret).replace(/^\s+/, '');
  return { text: inserted + rest, caret: inserted.length };
}
