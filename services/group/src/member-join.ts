import type { Group } from '@im/protocol';
import { announce, call, EVENTS, ImError, isDuplicateKeyError, type Ctx } from '@im/sdk';
import { Types } from 'mongoose';
import type { GroupDeps } from './deps.ts';
import type { GroupDoc, MemberDoc } from './models.ts';
import { converseIdsSeenBy, toGroup } from './views.ts';

type JoinDeps = Pick<GroupDeps, 'models' | 'store' | 'rooms'>;

export const bannedError = (): ImError => new ImError('IM_ERR_BANNED');

export const isBanned = async (
  { models }: Pick<GroupDeps, 'models'>,
  groupId: Types.ObjectId,
  userId: string,
): Promise<boolean> => (await models.bans.exists({ groupId, userId })) !== null;

/**
 * Makes `userId` a plain member of `group`, whatever let them in (an invite,
 * or the group being public); the caller has checked they are not a member
 * and not banned. A ban that lands during the join is checked again after
 * it, so it still keeps the user out. `undo` gives back what the caller took
 * for the join (an invite's use) when the join does not happen.
 */
export async function addMember(
  { models, store, rooms }: JoinDeps,
  ctx: Ctx<object>,
  group: GroupDoc,
  userId: string,
  undo: () => Promise<unknown> = async () => undefined,
): Promise<Group> {
  let member: MemberDoc;
  try {
    member = await store.insertMember({ groupId: group._id, userId: new Types.ObjectId(userId), role: 'member' });
  } catch (err) {
    await undo();
    // The same user joined twice at once: the other request joined them.
    if (isDuplicateKeyError(err)) return toGroup(group, { userId: new Types.ObjectId(userId), role: 'member' });
    throw err;
  }
  if (await isBanned({ models }, group._id, userId)) {
    await store.deleteMember({ _id: member._id });
    await undo();
    throw bannedError();
  }
  const updated = await store.updateGroup({ _id: group._id }, { $inc: { memberCount: 1 } }, { new: true });
  const groupId = group._id.toHexString();
  await rooms.joined(groupId, userId, member.joinedAt);
  const converseIds = converseIdsSeenBy(group, member);
  // History from before the join is not unread for the new member, nor an `@all` in it a mention.
  // Before answering, so the unread counts the app asks for next already start here.
  await call(ctx, 'chat.startReading', { userId, converseIds }).catch((err: unknown) =>
    ctx.broker.logger.warn({ err, groupId, userId }, 'read positions not started at the join'),
  );
  announce(ctx, EVENTS.memberJoined, {
    groupId,
    userId,
    role: 'member',
    converseIds,
    memberCount: updated?.memberCount ?? group.memberCount + 1,
  });
  return toGroup(updated ?? group, member);
}
