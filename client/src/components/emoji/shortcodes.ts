import compact from 'emojibase-data/en/compact.json';
import github from 'emojibase-data/en/shortcodes/github.json';
import { normalizeEmoji } from './emoji-data.ts';
import type { Shortcode } from './shortcode-query.ts';

/**
 * The standard emoji by their `:shortcode:` (GitHub's and Slack's names,
 * `rocket`, `+1`), sorted by code, for the composer's autocomplete. Loaded
 * with import() the first time a `:` is typed.
 */
export const SHORTCODES: Shortcode[] = compact
  .flatMap((e) => {
    const codes = github[e.hexcode];
    const emoji = normalizeEmoji(e.unicode);
    return (Array.isArray(codes) ? codes : codes ? [codes] : []).map((code) => ({ code, emoji }));
  })
  .sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
