import type { Context } from 'moleculer';
import type { ConverseAccess } from './access.ts';

const MENTION = /(?<![\w.@-])@([a-z0-9_.-]{3,32})/gi;
const MAX_MENTIONS = 50;

/** The distinct lower-cased usernames written as @name in the content. */
export function mentionedUsernames(content: string): string[] {
  const names = new Set<string>();
  for (const match of content.matchAll(MENTION)) {
    names.add(match[1]!.toLowerCase().replace(/[.-]+$/, ''));
    if (names.size >= MAX_MENTIONS) break;
  }
  return [...names];
}

/**
 * The ids of mentioned users who are members of the converse: clients cannot
 * mention arbitrary ids, and mentioning an outsider notifies nobody.
 */
export async function resolveMentions(ctx: Context, content: string, access: ConverseAccess): Promise<string[]> {
  const names = mentionedUsernames(content);
  if (names.length === 0) return [];
  const ids = Object.values((await ctx.call('user.idsByUsernames', { usernames: names })) as Record<string, string>);
  if (access.kind === 'dm') return ids.filter((id) => access.memberIds.includes(id));
  const checks = await Promise.all(
    ids.map(async (userId) =>
      (await ctx.call('group.converseMember', { converseId: access.converseId, userId })) ? userId : null,
    ),
  );
  return checks.filter((id): id is string => id !== null);
}
