import type { MarkdownIt, StateInline } from 'markdown-it';

const BAR = 0x7c;

/**
 * `||hidden text||`: a span of inline Markdown shown only when the reader
 * asks. Tokens `spoiler_open` / `spoiler_close` wrap the inner tokens; the
 * HTML renderer writes `<span class="spoiler" tabindex="0">`.
 */
function spoiler(state: StateInline, silent: boolean): boolean {
  const start = state.pos;
  const src = state.src;
  if (src.charCodeAt(start) !== BAR || src.charCodeAt(start + 1) !== BAR) return false;
  const end = src.indexOf('||', start + 2);
  // Empty (`||||`) or unclosed within this inline run: plain text.
  if (end < 0 || end + 2 > state.posMax || end === start + 2) return false;
  // Like emphasis, the inner text may not start or end with a space.
  if (/\s/.test(src[start + 2]!) || /\s/.test(src[end - 1]!)) return false;
  if (!silent) {
    state.push('spoiler_open', 'span', 1).markup = '||';
    const oldMax = state.posMax;
    state.pos = start + 2;
    state.posMax = end;
    state.md.inline.tokenize(state);
    state.posMax = oldMax;
    state.push('spoiler_close', 'span', -1).markup = '||';
  }
  state.pos = end + 2;
  return true;
}

export function spoilers(md: MarkdownIt): void {
  md.inline.ruler.after('text', 'spoiler', spoiler);
  // Focusable, so a page's style can show it on focus as on hover: keyboards reach it, no script needed.
  md.renderer.rules.spoiler_open = () => '<span class="spoiler" tabindex="0">';
  md.renderer.rules.spoiler_close = () => '</span>';
}
