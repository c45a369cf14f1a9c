import type { MarkdownIt, Token } from 'markdown-it';
import { SPOILER } from './plain-text.ts';

/**
 * Replaces each spoiler's words by "[spoiler]" in the token stream, for
 * HTML read where a spoiler cannot stay hidden until asked for (e-mail,
 * feed readers): `createMarkdown().use(hideSpoilers)`.
 */
export function hideSpoilers(md: MarkdownIt): void {
  md.core.ruler.push('hide_spoilers', (state) => {
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
}
