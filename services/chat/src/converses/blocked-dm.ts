import { call, ImError, type ActionCaller } from '@im/sdk';

/**
 * A DM between two users where either blocked the other is refused (403
 * IM_ERR_BLOCKED): the blocked user cannot reach the blocker, and the
 * blocker unblocks before writing to them again.
 */
export async function refuseBlockedDm(caller: ActionCaller, from: string, to: string): Promise<void> {
  const { byFrom, byTo } = await call(caller, 'user.blockBetween', { from, to });
  if (byFrom) throw new ImError('IM_ERR_BLOCKED', 'You blocked this user; unblock them to write to them');
  if (byTo) throw new ImError('IM_ERR_BLOCKED');
}

/** The same for a send into a converse: only a DM's other member matters. */
export async function refuseBlockedDmSend(
  caller: ActionCaller,
  access: { kind: string; memberIds?: string[] },
  userId: string,
): Promise<void> {
  if (access.kind !== 'dm' || !access.memberIds) return;
  const other = access.memberIds.find((id) => id !== userId);
  if (other) await refuseBlockedDm(caller, userId, other);
}
