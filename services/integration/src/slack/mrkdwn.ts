import { unicodeShortcodes } from '@im/sdk';

/** Slack's special mentions, as words a reader here understands (no one is notified by a hook's `@here`). */
const SPECIAL: Record<string, string> = { here: '@\u200Bhere', channel: '@\u200Bchannel', everyone: '@\u200Beveryone' };

/** A Markdown link's label with the characters that would end it escaped. */
const label = (text: string) => text.replace(/([[\]\\])/g, '\\$1');

/**
 * One `<...>` of Slack's mrkdwn: `<url|label>` and `<url>` become Markdown
 * links, `<@U123>` and `<#C123|name>` the name or id as text, `<!here>` a
 * word (with a zero-width space: a webhook never mentions everyone here),
 * `<!date^…|fallback>` its fallback.
 */
function angle(inner: string): string {
  const bar = inner.indexOf('|');
  const target = bar < 0 ? inner : inner.slice(0, bar);
  const text = bar < 0 ? undefined : inner.slice(bar + 1);
  if (target.startsWith('@')) return `@${text ?? target.slice(1)}`;
  if (target.startsWith('#')) return `#${text ?? target.slice(1)}`;
  if (target.startsWith('!')) {
    const special = SPECIAL[target.slice(1)];
    if (special) return special;
    return text ?? '';
  }
  if (/^(https?:\/\/|mailto:)/i.test(target)) return text ? `[${label(text)}](${target})` : `<${target}>`;
  return text ?? target;
}

/**
 * Slack's mrkdwn as this app's Markdown: its `<...>` forms, its entities
 * (`&amp;`, `&lt;`, `&gt;`), `*bold*` and `~strike~` (single marks there),
 * and `:shortcode:` emoji as the characters. Code spans and blocks are kept.
 */
export function mrkdwnToMarkdown(text: string): string {
  const converted = text
    .split(/(```[\s\S]*?```|`[^`\n]*`)/)
    .map((part, i) => {
      if (i % 2 === 1) return part;
      return part
        .replace(/<([^<>\n]+)>/g, (_, inner: string) => angle(inner))
        .replace(/(^|[\s(_])\*(?=\S)([^*\n]*?\S)\*(?=$|[\s).,!?;:_])/gm, '$1**$2**')
        .replace(/(^|[\s(_*])~(?=\S)([^~\n]*?\S)~(?=$|[\s).,!?;:_*])/gm, '$1~~$2~~');
    })
    .join('');
  // Entities last: an escaped `&lt;` is a character, never one of the forms above.
  return unicodeShortcodes(converted).replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}
