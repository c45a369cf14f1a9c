import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** emojibase's shortcode tables: hexcode -> one name or several. */
type ShortcodeTable = Record<string, string | string[]>;

let byName: Map<string, string> | undefined;

/** Slack's `skin-tone-2`..`6` (and Mattermost's the same): the Fitzpatrick modifiers. */
const SKIN_TONES: Record<string, string> = {
  'skin-tone-2': '\u{1F3FB}',
  'skin-tone-3': '\u{1F3FC}',
  'skin-tone-4': '\u{1F3FD}',
  'skin-tone-5': '\u{1F3FE}',
  'skin-tone-6': '\u{1F3FF}',
};

/**
 * Names to Unicode, from the shortcode sets the exporting apps use: iamcal's
 * (Slack's and Mattermost's), GitHub's (Discord's are mostly these), and
 * emojibase's and CLDR's. Loaded on first use (a few hundred KB of JSON).
 */
function table(): Map<string, string> {
  if (byName) return byName;
  // The emoji as written (with its presentation selector: `❤️`, not a text `❤`), by hexcode.
  const written = new Map<string, string>();
  const compact = require('emojibase-data/en/compact.json') as Array<{ hexcode: string; unicode: string }>;
  for (const e of compact) written.set(e.hexcode, normalizeEmoji(e.unicode));
  const fromHexcode = (hex: string) =>
    written.get(hex) ?? String.fromCodePoint(...hex.split('-').map((h) => parseInt(h, 16)));
  const map = new Map<string, string>();
  for (const set of ['cldr', 'emojibase', 'github', 'iamcal']) {
    const codes = require(`emojibase-data/en/shortcodes/${set}.json`) as ShortcodeTable;
    for (const [hex, names] of Object.entries(codes)) {
      for (const name of Array.isArray(names) ? names : [names]) map.set(name.toLowerCase(), fromHexcode(hex));
    }
  }
  byName = map;
  return map;
}

/** The Unicode emoji a shortcode name stands for (`thumbsup`, `+1`, `thumbsup::skin-tone-3`), if there is one. */
export function unicodeForName(name: string): string | undefined {
  const [base, tone] = name.toLowerCase().split('::');
  const emoji = table().get(base!);
  if (!emoji) return undefined;
  const modifier = tone ? SKIN_TONES[tone] : undefined;
  return modifier ? emoji.replace(/\uFE0F$/, '') + modifier : emoji;
}

/**
 * An emoji in the form the app's picker sends it: without the presentation
 * selector after a character that is drawn as an emoji anyway (`👍`, not
 * `👍` + U+FE0F), so an imported reaction and one made in the app are the same.
 */
export const normalizeEmoji = (emoji: string): string =>
  /^\p{Emoji_Presentation}\uFE0F$/u.test(emoji) ? emoji.slice(0, -1) : emoji;

/** One emoji as reactions take it (with modifiers and joiners). */
export const UNICODE_EMOJI =
  /^(?=.*(?:\p{Extended_Pictographic}|\p{Regional_Indicator}))(?:\p{Extended_Pictographic}|\p{Emoji_Component}|\u200d|\ufe0f){1,16}$/u;

const SHORTCODE = /:([a-z0-9_+'-]{1,64}(?:::skin-tone-[2-6])?):/gi;

/**
 * `:name:` in a message's text: Unicode where the name has it, `:name:`
 * kept where `keep` says (the group's custom emoji, drawn by the app), else
 * the text as it was. Code spans and blocks are left alone.
 */
export function unicodeShortcodes(text: string, keep: ReadonlySet<string> = new Set()): string {
  if (!text.includes(':')) return text;
  const replace = (whole: string, name: string) =>
    keep.has(name.toLowerCase()) ? whole : (unicodeForName(name) ?? whole);
  return text
    .split(/(```[\s\S]*?```|`[^`\n]*`)/)
    .map((part, i) => (i % 2 === 1 ? part : part.replace(SHORTCODE, replace)))
    .join('');
}
