import MarkdownIt from 'markdown-it';
import { dropForbidden } from './escape.ts';

/** Link targets a rendered message may have: anything else (javascript:, data:, file:) stays text. */
const SAFE_LINK = /^(https?:|mailto:)/i;

/**
 * Message Markdown, safe by construction: raw HTML is never passed through
 * (`html: false` escapes it), links keep only http(s) and mailto targets,
 * images are not rendered (a reader's browser would fetch a third party's
 * address) and every link opens without a referrer. Bare URLs become links.
 */
const md = new MarkdownIt({ html: false, linkify: true, breaks: true, typographer: false });
md.validateLink = (url: string) => SAFE_LINK.test(url.trim());
md.disable(['image']);

const defaultLinkOpen =
  md.renderer.rules.link_open ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
  const token = tokens[idx]!;
  token.attrSet('rel', 'nofollow noopener noreferrer ugc');
  return defaultLinkOpen(tokens, idx, options, env, self);
};

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
