import { announce, EVENTS } from '@im/sdk';
import { Types } from 'mongoose';
import type { PushModels } from './models.ts';

/** Most recipients of one message told their new inbox count at once (an `@all` in a bigger group is not). */
const TOLD_MAX = 1000;

type Sender = Parameters<typeof announce>[0];

/** Inbox entries not yet read. */
export const unreadCount = (models: Pick<PushModels, 'notifications'>, userId: string): Promise<number> =>
  models.notifications.countDocuments({ userId: new Types.ObjectId(userId), readAt: null });

/** Tells each user's devices their inbox count (`inbox:updated`): one aggregation for all of them. */
export async function tellInboxCounts(
  sender: Sender,
  models: Pick<PushModels, 'notifications'>,
  userIds: readonly string[],
): Promise<void> {
  if (userIds.length === 0 || userIds.length > TOLD_MAX) return;
  const rows = await models.notifications.aggregate<{ _id: Types.ObjectId; n: number }>([
    { $match: { userId: { $in: userIds.map((id) => new Types.ObjectId(id)) }, readAt: null } },
    { $group: { _id: '$userId', n: { $sum: 1 } } },
  ]);
  const counts = new Map(rows.map((r) => [r._id.toHexString(), r.n]));
  for (const userId of userIds) announce(sender, EVENTS.inboxUpdated, { userId, unread: counts.get(userId) ?? 0 });
}
