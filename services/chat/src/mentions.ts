import { call } from '@im/sdk';
import type { Context } from 'moleculer';

const MENTION = /(?<![\w.@-])@([a-z0-9_.-]{3,32})/gi;
const MAX_MENTIONS = 50;
/** A user group's handle is at most this long (@im/protocol's USER_GROUP_HANDLE_PATTERN). */
const MAX_HANDLE_LENGTH = 32;

/** The distinct lower-cased usernames written as @name in the content. */
export function mentionedUsernames(content: string): string[] {
  const names = new Set<string>();
  for (const match of content.matchAll(MENTION)) {
    const name = match[1]!.toLowerCase().replace(/[.-]+$/, '');
    // @all and @here mention many members (mention-many.ts), never an account of that name.
    if (name !== 'all' && name !== 'here') names.add(name);
    if (names.size >= MAX_MENTIONS) break;
  }
  return [...names];
}

/**
 * The ids of the active users the content mentions by name (one call, none
 * when it mentions nobody), and the words that may be user groups' handles
 * (every `@word`: the group service knows which are; a handle that is also
 * a username mentions both). Which of them are members of the converse is
 * for the caller to check: clients cannot mention arbitrary ids, and
 * mentioning an outsider notifies nobody.
 */
export async function mentioned(ctx: Context, content: string): Promise<{ userIds: string[]; handles: string[] }> {
  const usernames = mentionedUsernames(content);
  if (usernames.length === 0) return { userIds: [], handles: [] };
  const userIds = Object.values(await call(ctx, 'user.idsByUsernames', { usernames }));
  return { userIds, handles: usernames.filter((name) => name.length <= MAX_HANDLE_LENGTH) };
}
