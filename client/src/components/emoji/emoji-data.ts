import compact from 'emojibase-data/en/compact.json';
import messages from 'emojibase-data/en/messages.json';

/** One Unicode emoji as the picker shows and searches it. */
export interface EmojiEntry {
  emoji: string;
  label: string;
  /** Lower-cased label and tags, for search. */
  words: string[];
}

export interface EmojiCategory {
  key: string;
  label: string;
  emoji: EmojiEntry[];
}

/**
 * The emoji a reaction or message uses: "👍️" (with a variation selector)
 * and "👍" are the same picture, so a selector after a character that is an
 * emoji on its own is dropped; both pickers and quick reactions agree then.
 */
export function normalizeEmoji(emoji: string): string {
  return /^\p{Emoji_Presentation}\uFE0F$/u.test(emoji) ? emoji.slice(0, -1) : emoji;
}

/** Every category but skin-tone components, in emojibase's order. Loaded with import() so the main bundle stays small. */
export const CATEGORIES: EmojiCategory[] = messages.groups
  .filter((g) => g.key !== 'component')
  .sort((a, b) => a.order - b.order)
  .map((group) => ({
    key: group.key,
    label: group.message.replace(/^./, (c) => c.toUpperCase()),
    emoji: compact
      .filter((e) => e.group === group.order)
      .sort((a, b) => (a.order ?? 0) - (b.order ?? 0))
      .map((e) => ({
        emoji: normalizeEmoji(e.unicode),
        label: e.label,
        words: [e.label.toLowerCase(), ...(e.tags ?? []).map((t) => t.toLowerCase())],
      })),
  }));
