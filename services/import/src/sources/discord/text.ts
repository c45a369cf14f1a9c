import { mentionToken } from '../../source/mention-token.ts';
import type { DceUser } from './format.ts';

export interface TextContext {
  /** A channel's name by id, for `<#id>`. */
  channelName(id: string): string | undefined;
}

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A message's content as Markdown for this platform. Discord's own markup is
 * Markdown already; what differs are its tokens. The exporter writes them
 * raw (`<@123>`) when run without markdown formatting, and by default
 * replaces them with what Discord shows (`@Nickname`, `#channel`,
 * `:emoji:`): both are read, a shown name being matched to the message's
 * `mentions`.
 */
export function convertText(content: string, mentions: readonly DceUser[], context: TextContext): string {
  let text = content;
  // Most messages hold no token at all: the replacements are skipped for them.
  if (text.includes('<'))
    text = text
      .replace(/<@!?(\d+)>/g, (_m, id: string) => mentionToken(id))
      .replace(/<@&\d+>/g, '@role')
      .replace(/<#(\d+)>/g, (_m, id: string) => `#${context.channelName(id) ?? 'deleted-channel'}`)
      .replace(/<a?:([\w~-]+):\d+>/g, ':$1:')
      .replace(/<t:(-?\d+)(?::[tTdDfFR])?>/g, (_m, seconds: string) => timestampText(Number(seconds)));
  if (text.includes('@everyone')) text = text.replace(/@everyone\b/g, '@all');
  if (mentions.length === 0 || !text.includes('@')) return text;
  // Shown names: the longest first, so `@Ann Lee` is not taken for `@Ann`.
  const shown: Array<[string, string]> = [];
  for (const user of mentions) {
    if (!user.id) continue;
    for (const name of [user.nickname, user.name]) if (name && text.includes(`@${name}`)) shown.push([name, user.id]);
  }
  shown.sort((a, b) => b[0].length - a[0].length);
  for (const [name, id] of shown) {
    const pattern = new RegExp(`@${escapeRegExp(name)}(?![\\p{L}\\p{N}_])`, 'gu');
    text = text.replace(pattern, () => mentionToken(id));
  }
  return text;
}

function timestampText(seconds: number): string {
  const date = new Date(seconds * 1000);
  return Number.isNaN(date.getTime()) ? 'Invalid date' : date.toISOString().replace('.000Z', 'Z');
}
