import type { StateInline } from 'markdown-it';

// The characters at which markdown-it's own text rule stops, so that another
// inline rule gets a chance to start there (markdown-it does not export it).
const STOPS = new Set([...'\n!#$%&*+-:<=>@[\\]^_`{}~'].map((c) => c.codePointAt(0)!));

/**
 * An inline `text` rule that also stops at `extra` character codes: a rule
 * for new syntax (`||spoiler||`) only runs where plain text ends.
 */
export function textUntil(extra: readonly number[]) {
  const stops = new Set([...STOPS, ...extra]);
  return (state: StateInline, silent: boolean): boolean => {
    let pos = state.pos;
    while (pos < state.posMax && !stops.has(state.src.charCodeAt(pos))) pos++;
    if (pos === state.pos) return false;
    if (!silent) state.pending += state.src.slice(state.pos, pos);
    state.pos = pos;
    return true;
  };
}
