import type { MarkdownIt, Token } from 'markdown-it';
import { createMarkdown } from './configure.ts';

/** Tokens whose `content` is text a reader sees. */
const TEXT_TOKENS = new Set(['text', 'code_inline', 'code_block', 'fence']);

let shared: MarkdownIt | undefined;

/** What a spoiler reads as in plain text. */
export const SPOILER = '[spoiler]';

/**
 * A message's content as one line of plain text, at most `max` characters
 * (titles, feed descriptions, quotes, notifications): the words Markdown
 * would show, without its marks; a spoiler's words stay hidden.
 */
export function plainText(content: string, max: number): string {
  shared ??= createMarkdown();
  const parts: string[] = [];
  let hidden = 0;
  const collect = (tokens: Token[]) => {
    for (const token of tokens) {
      // A spoiler stays hidden in plain text too: one mark stands for it.
      if (token.type === 'spoiler_open' && hidden++ === 0) parts.push(SPOILER);
      else if (token.type === 'spoiler_close') hidden -= 1;
      if (hidden > 0) continue;
      if (token.children) collect(token.children);
      if (TEXT_TOKENS.has(token.type)) parts.push(token.content);
      // Between blocks and at line breaks a space; inline markup (**, links) joins its words.
      else if (token.block || token.type === 'softbreak' || token.type === 'hardbreak') parts.push(' ');
    }
  };
  collect(shared.parse(content, {}));
  const text = parts.join('').replace(/\s+/g, ' ').trim();
  return text.length > max ? `${[...text].slice(0, max - 1).join('')}…` : text;
}
