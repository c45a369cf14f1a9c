import { mentionToken } from '../../source/mention-token.ts';

/**
 * `@word` where a Mattermost mention can start: not inside a word, an
 * e-mail address or a link's path (`https://host/@name`). Usernames are
 * letters, digits, `.`, `-` and `_`.
 */
const MENTION = /(?<![\p{L}\p{N}_.@/-])@([\p{L}\p{N}._-]+)/gu;
/** Code spans and fenced blocks: Markdown shows what is in them as it is, so no mention is read there. */
const CODE = /(```[\s\S]*?(?:```|$)|~~~[\s\S]*?(?:~~~|$)|`[^`\n]+`)/;

const EVERYONE: Readonly<Record<string, string>> = { channel: '@all', all: '@all', here: '@here' };

/**
 * Mattermost's text is Markdown already: only its mentions change. A
 * mention of a person the export lists becomes that person's token;
 * `@channel` and `@all` become `@all`, `@here` stays. A trailing `.`, `-`
 * or `_` is read as punctuation when the name with it is nobody's, as
 * Mattermost reads it (`@alice.` at the end of a sentence).
 */
export function convertMentions(message: string, isUser: (key: string) => boolean): string {
  if (!message.includes('@')) return message;
  return message
    .split(CODE)
    .map((part, i) =>
      i % 2 === 1 ? part : part.replace(MENTION, (whole, name: string) => mention(name, isUser) ?? whole),
    )
    .join('');
}

function mention(name: string, isUser: (key: string) => boolean): string | undefined {
  let candidate = name.toLowerCase();
  let rest = '';
  for (;;) {
    const special = EVERYONE[candidate];
    if (special) return special + rest;
    if (isUser(candidate)) return mentionToken(candidate) + rest;
    const last = candidate.at(-1);
    if (last !== '.' && last !== '-' && last !== '_') return undefined;
    rest = last + rest;
    candidate = candidate.slice(0, -1);
  }
}
