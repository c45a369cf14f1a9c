import type { ConverseAccess } from '@im/protocol';
import { call } from '@im/sdk';
import type { Context } from 'moleculer';
import { Types } from 'mongoose';
import type { MessageDoc } from '../models.ts';

/**
 * `@all` and `@here`: mentions of many members. A large group would need a
 * write per member to keep them with each member's read position (as
 * mention-seqs.ts keeps mentions by name), so they are flags on the message
 * instead, and a reader's unread summary counts the flagged messages above
 * their read position (a sparse index holds only flagged messages).
 *
 * `@here` means the members online when it was sent. The message names them
 * (`hereIds`, the author left out) while they are at most HERE_IDS_MAX: the
 * count is then exact. Past that, naming them would make every such message
 * a large document, so `@here` counts for every member, like `@all`: in so
 * busy a group the members who were away are the few, and a mention too
 * many is the cheaper mistake than a document of thousands of ids.
 */

/** In groups over this many members only holders of mentionAll may write `@all` (and `@here`). */
export const ALL_OPEN_UP_TO = 100;
/** Most online members an `@here` names; past that it counts for every member. */
export const HERE_IDS_MAX = 1000;

/** The same boundaries as `@name` (mentions.ts): a word of its own, not part of an address. */
const MANY = /(?<![\w.@-])@(all|here)(?![\w-])/gi;

/** Whether the content writes `@all` and `@here`. */
export function writtenMany(content: string): { all: boolean; here: boolean } {
  const found = new Set([...content.matchAll(MANY)].map((m) => m[1]!.toLowerCase()));
  return { all: found.has('all'), here: found.has('here') };
}

/** What a message stores about its mentions of many: set fields, and those to remove on an edit. */
export interface ManyFlags {
  set: Pick<MessageDoc, 'mentionsAll' | 'mentionsHere' | 'mentionsMany' | 'hereIds'>;
  unset: Array<'mentionsAll' | 'mentionsHere' | 'mentionsMany' | 'hereIds'>;
}

/** Which of these users have a socket anywhere (nobody when no gateway answers). */
const onlineAmong = async (ctx: Context, ids: string[]) =>
  ids.length === 0 ? [] : await call(ctx, 'gateway.online', { userIds: ids }).catch((): string[] => []);

/**
 * The flags of a message the author writes (or edits: `before` is the stored
 * version; an `@here` it already had keeps who was online then). At most two
 * calls, only when the content writes `@all` or `@here`: the group's roster
 * and, for `@here`, who of them is online.
 */
export async function manyMentions(
  ctx: Context,
  converse: ConverseAccess,
  authorId: string,
  content: string,
  before?: Pick<MessageDoc, 'mentionsHere' | 'hereIds'>,
): Promise<ManyFlags> {
  const written = writtenMany(content);
  let all = written.all;
  let here = written.here;
  let hereIds: string[] | undefined;
  if (all || here) {
    const roster =
      converse.kind === 'dm'
        ? { memberCount: converse.memberIds.length, memberIds: converse.memberIds }
        : await call(ctx, 'group.converseRoster', {
            converseId: converse.converseId,
            maxIds: here && !before?.mentionsHere ? HERE_IDS_MAX : 0,
          });
    const memberCount = roster?.memberCount ?? 0;
    // In a large group `@all` and `@here` of someone without mentionAll stay plain text.
    if (converse.kind === 'group' && memberCount > ALL_OPEN_UP_TO && !converse.permissions.includes('mentionAll')) {
      all = false;
      here = false;
    }
    if (here && before?.mentionsHere) hereIds = before.hereIds?.map((id) => id.toHexString());
    else if (here && roster?.memberIds)
      hereIds = await onlineAmong(
        ctx,
        roster.memberIds.filter((id) => id !== authorId),
      );
  }
  const set: ManyFlags['set'] = {
    ...(all ? { mentionsAll: true } : {}),
    ...(here ? { mentionsHere: true } : {}),
    ...(all || here ? { mentionsMany: new Types.ObjectId(converse.converseId) } : {}),
    ...(here && hereIds ? { hereIds: hereIds.map((id) => new Types.ObjectId(id)) } : {}),
  };
  const unset = (['mentionsAll', 'mentionsHere', 'mentionsMany', 'hereIds'] as const).filter((k) => !(k in set));
  return { set, unset };
}
