import { createMarkdown, plainText, type MarkdownIt, type Token } from '@im/markdown';

/** What a spoiler reads as in an e-mail, in HTML as in text. */
const SPOILER = '[spoiler]';

let md: MarkdownIt | undefined;

/**
 * The shared message Markdown (raw HTML escaped, safe links only, no
 * images), with each spoiler's words replaced by "[spoiler]": an e-mail
 * cannot hide them until clicked, so they are left out.
 */
function markdown(): MarkdownIt {
  if (md) return md;
  md = createMarkdown();
  md.core.ruler.push('mail_hide_spoilers', (state) => {
    for (const block of state.tokens) {
      if (!block.children) continue;
      const kept: Token[] = [];
      let depth = 0;
      for (const token of block.children) {
        if (token.type === 'spoiler_open') {
          if (depth++ === 0) {
            const mark = new state.Token('text', '', 0);
            mark.content = SPOILER;
            kept.push(mark);
          }
          continue;
        }
        if (token.type === 'spoiler_close') {
          depth -= 1;
          continue;
        }
        if (depth === 0) kept.push(token);
      }
      block.children = kept;
    }
  });
  return md;
}

/** A message's Markdown as e-mail HTML. */
export const messageHtml = (content: string): string => markdown().render(content);

/** A message's Markdown as one line of e-mail text (spoilers shown as "[spoiler]"). */
export const messageText = (content: string, max = 1000): string => plainText(content, max);
