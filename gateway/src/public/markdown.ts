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

/** A message's content as one line of plain text (titles, descriptions): Markdown syntax removed. */
export function plainText(content: string, max: number): string {
  const text = md
    .render(dropForbidden(content))
    .replace(/<[^>]*>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > max ? `${[...text].slice(0, max - 1).join('')}…` : text;
}
