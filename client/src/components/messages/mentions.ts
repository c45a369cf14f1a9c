import { t } from '../../i18n/i18n.ts';
import type { PublicUser, UserGroup } from '@im/protocol';

/** The `@query` the caret is in, if any: at the start or after whitespace, up to the caret. */
export function mentionQueryAt(text: string, caret: number): { start: number; query: string } | null {
  const before = text.slice(0, caret);
  const match = /(^|\s)@([a-z0-9_.-]{0,32})$/i.exec(before);
  if (!match) return null;
  return { start: caret - match[2]!.length - 1, query: match[2]!.toLowerCase() };
}

/**
 * `@all` and `@here`, offered as if they were members (the composer inserts
 * `@username`). The server decides whether they mention anyone: in a large
 * group a plain member's `@all` stays text.
 */
export const manyMentions = (): PublicUser[] => [
  { id: '@all', username: 'all', nickname: t('composer.mention.all'), createdAt: '' },
  { id: '@here', username: 'here', nickname: t('composer.mention.here'), createdAt: '' },
];

/** A group's user groups, offered beside its members (`@handle` mentions each of their members). */
export const userGroupMentions = (userGroups: readonly UserGroup[]): PublicUser[] =>
  userGroups.map((ug) => ({
    id: `@group:${ug.id}`,
    username: ug.handle,
    nickname: `${ug.name} (group)`,
    createdAt: '',
  }));

/**
 * Members whose username or nickname starts with the query (usernames first),
 * then `@all` / `@here` once a typed letter points at them; at most `limit`.
 */
export function mentionCandidates(
  members: readonly PublicUser[],
  query: string,
  meId: string,
  limit = 8,
): PublicUser[] {
  const q = query.toLowerCase();
  const byUsername: PublicUser[] = [];
  const byNickname: PublicUser[] = [];
  for (const user of members) {
    if (user.id === meId) continue;
    if (user.username.startsWith(q)) byUsername.push(user);
    else if (user.nickname.toLowerCase().startsWith(q)) byNickname.push(user);
  }
  const many = q ? manyMentions().filter((m) => m.username.startsWith(q)) : [];
  return [...byUsername, ...byNickname, ...many].slice(0, limit);
}

/** The text with `@query` replaced by the chosen `@username ` and where the caret goes. */
export function insertMention(
  text: string,
  at: { start: number; query: string },
  username: string,
): { text: string; caret: number } {
  const end = at.start + 1 + at.query.length;
  const inserted = `@${username} `;
  return { text: text.slice(0, at.start) + inserted + text.slice(end), caret: at.start + inserted.length };
}
