/**
 * How a reader writes a mention of a person into a message's text before
 * anyone knows which account that person becomes: the writer replaces each
 * token with `@username` and records the mention. Private-use characters,
 * so no real text is ever taken for one.
 */
const OPEN = '\u{E000}';
const CLOSE = '\u{E001}';

export const mentionToken = (userKey: string): string => `${OPEN}${userKey}${CLOSE}`;

const TOKENS = /\u{E000}([^\u{E000}\u{E001}]{1,200})\u{E001}/gu;

/** The text with every token replaced by what `name` says for its key (stray markers dropped). */
export function replaceMentionTokens(text: string, name: (userKey: string) => string): string {
  if (!text.includes(OPEN)) return text;
  return text.replace(TOKENS, (_m, key: string) => name(key)).replace(/[\u{E000}\u{E001}]/gu, '');
}

/** The user keys a text mentions, each once. */
export function mentionedKeys(text: string): string[] {
  if (!text.includes(OPEN)) return [];
  return [...new Set([...text.matchAll(TOKENS)].map((m) => m[1]!))];
}
