import { createMarkdown, type StateInline, type Token } from '@im/markdown';

/** What a parse needs to know about the reader: who may be mentioned, and who I am. */
export interface MentionEnv {
  mentionNames?: ReadonlySet<string>;
  myName?: string;
}

const NAME = /^@([a-z0-9_.-]{3,32})/i;
// A letter or digit before `@` makes it part of a word (an address); `_@bob_` is emphasis.
const WORD = /[\p{L}\p{N}]/u;

/**
 * `@name` of a mentioned user becomes a `mention` token (a highlight, not a
 * link). It needs a word boundary before it, so `a@b.example` stays an
 * address; a name nobody was mentioned by stays plain text.
 */
function mention(state: StateInline, silent: boolean): boolean {
  if (state.src.charCodeAt(state.pos) !== 0x40) return false;
  if (state.pos > 0 && WORD.test(state.src[state.pos - 1]!)) return false;
  const match = NAME.exec(state.src.slice(state.pos, state.posMax));
  const env = state.env as MentionEnv;
  if (!match || !env.mentionNames) return false;
  // `@bob.` ending a sentence or `_@bob_` in emphasis: the name without trailing punctuation.
  let name = match[1]!.toLowerCase();
  if (!env.mentionNames.has(name)) name = name.replace(/[._-]+$/, '');
  if (!env.mentionNames.has(name)) return false;
  if (!silent) {
    const token = state.push('mention', '', 0);
    token.content = `@${match[1]!.slice(0, name.length)}`;
    // @all and @here are only ever mentionNames when the server flagged them: they mention me too.
    token.meta = { me: name === env.myName?.toLowerCase() || name === 'all' || name === 'here' };
  }
  state.pos += name.length + 1;
  return true;
}

// The shared configuration (the public pages render with the same rules) plus mentions.
const md = createMarkdown();
md.inline.ruler.after('text', 'mention', mention);

/** A message as block tokens (paragraphs, lists, code...). */
export const parseBlocks = (text: string, env: MentionEnv): Token[] => md.parse(text, { ...env });

/** A message as one inline run (`/me` actions are said in one line). */
export const parseInline = (text: string, env: MentionEnv): Token[] => md.parseInline(text, { ...env });
