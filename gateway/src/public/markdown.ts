import { createMarkdown } from '@im/markdown';
import { dropForbidden } from './escape.ts';

/** Message Markdown with the rules the web client uses too (safe links, no HTML, no images, spoilers). */
const md = createMarkdown();

/** A message's content as HTML. */
export const renderMarkdown = (content: string): string => md.render(dropForbidden(content));

/** Tokens whose `content` is text a reader sees. */
const TEXT_TOKENS = new Set(['text', 'code_inline', 'code_block', 'fence']);

/** A message's content as one line of plain text (titles, descriptions): the words Markdown would show. */
export function plainText(content: string, max: number): string {
  const parts: string[] = [];
  const collect = (tokens: ReturnType<typeof md.parse>) => {
    for (const token of tokens) {
      if (token.children) collect(token.children);
      if (TEXT_TOKENS.has(token.type)) parts.push(token.content);
      // Between blocks and at line breaks a space; inline markup (**, links) joins its words.
      else if (token.block || token.type === 'softbreak' || token.type === 'hardbreak') parts.push(' ');
    }
  };
  collect(md.parse(dropForbidden(content), {}));
  const text = parts.join('').replace(/\s+/g, ' ').trim();
  return text.length > max ? `${[...text].slice(0, max - 1).join('')}…` : text;
}
