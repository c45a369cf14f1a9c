import type { CustomEmoji } from '@im/protocol';

/** A standard emoji's shortcode: `rocket` for 🚀. */
export interface Shortcode {
  code: string;
  emoji: string;
}

/** What the autocomplete offers: a standard emoji, or one of the group's own (inserted as `:name:`). */
export type ShortcodeChoice = { code: string; emoji: string } | { code: string; custom: CustomEmoji };

/** Most choices offered at once. */
const MAX_CHOICES = 8;

// `:` then two or more name characters up to the caret, at the start or after a space or bracket
// (so times like 10:30 and URLs do not open it).
const TYPING = /(?:^|[\s([]):([a-z0-9_+-]{2,})$/i;
// `:code:` just closed and followed by the space typed now.
const CLOSED = /(?:^|[\s([]):([a-z0-9_+-]+): $/i;

/** The shortcode being typed before the caret, if any: where its `:` is, and the name so far. */
export function shortcodeQueryAt(text: string, caret: number): { start: number; query: string } | null {
  const match = TYPING.exec(text.slice(0, caret));
  if (!match) return null;
  return { start: caret - match[1]!.length - 1, query: match[1]!.toLowerCase() };
}

/**
 * The emoji matching `query`: the group's own first, then the standard ones,
 * names starting with the query before names containing it.
 */
export function shortcodeChoices(
  table: readonly Shortcode[],
  custom: Iterable<CustomEmoji>,
  query: string,
): ShortcodeChoice[] {
  const q = query.toLowerCase();
  const rank = (code: string) => (code.startsWith(q) ? 0 : code.includes(q) ? 1 : 2);
  const own = [...custom].filter((e) => rank(e.name) < 2).map((e) => ({ code: e.name, custom: e }));
  const standard = table.filter((s) => rank(s.code) < 2);
  return [...own, ...standard].sort((a, b) => rank(a.code) - rank(b.code)).slice(0, MAX_CHOICES);
}

/** What a choice puts in the text: the emoji character, or a custom one's `:name:`. */
export const choiceText = (choice: ShortcodeChoice): string => ('custom' in choice ? `:${choice.code}:` : choice.emoji);

/**
 * A `:code:` of a standard emoji closed with a space just before the caret
 * becomes its emoji: the new text and caret, or null when there is none.
 */
export function replaceClosedShortcode(
  text: string,
  caret: number,
  table: readonly Shortcode[],
): { text: string; caret: number } | null {
  const match = CLOSED.exec(text.slice(0, caret));
  if (!match) return null;
  const code = match[1]!.toLowerCase();
  const found = table.find((s) => s.code === code);
  if (!found) return null;
  // From the opening `:` to the closing one; the space stays.
  const start = caret - code.length - 3;
  const next = `${text.slice(0, start)}${found.emoji} ${text.slice(caret)}`;
  return { text: next, caret: start + found.emoji.length + 1 };
}
