import markdownIt, { type MarkdownIt } from 'markdown-it';
import { spoilers } from './spoilers.ts';
import { textUntil } from './text-rule.ts';

/** Link targets a rendered message may have: anything else (javascript:, data:, file:) stays text. */
const SAFE_LINK = /^(https?:|mailto:)/i;

/** Every link in a message is someone else's: no referrer, no opener, no ranking credit. */
const LINK_REL = 'nofollow noopener noreferrer ugc';

/**
 * Message Markdown, safe by construction, the same for the public pages and
 * the web client: raw HTML is never passed through (`html: false` escapes
 * it), links keep only http(s) and mailto targets, images are not rendered
 * (a reader's browser would fetch a third party's address), every link opens
 * in a new tab without a referrer, bare URLs become links and `||text||` is
 * a spoiler. Each call builds a fresh instance, so a caller may add its own
 * rules (the client's mentions) without touching anyone else's.
 */
export function createMarkdown(): MarkdownIt {
  const md = markdownIt({ html: false, linkify: true, breaks: true, typographer: false });
  md.validateLink = (url: string) => SAFE_LINK.test(url.trim());
  md.disable(['image']);
  // `|` must end a run of plain text, or the spoiler rule would never see `||`.
  md.inline.ruler.at('text', textUntil([0x7c]));
  md.use(spoilers);

  // Every link, written or linkified, gets its attributes in the token stream:
  // md.render parses first, and renderers that walk tokens see the same.
  md.core.ruler.push('link_attributes', (state) => {
    for (const block of state.tokens) {
      for (const token of block.children ?? []) {
        if (token.type !== 'link_open') continue;
        token.attrSet('rel', LINK_REL);
        token.attrSet('target', '_blank');
      }
    }
  });
  return md;
}
