import { Types } from 'mongoose';
import type { PushModels } from './models.ts';

/**
 * Of `userIds`, those who muted `converseId` (or everything) in their
 * notification settings: they get no push, no inbox entry and no
 * missed-message e-mail for it. One read for all of them.
 */
export async function mutedAmong(
  models: Pick<PushModels, 'settings'>,
  converseId: string,
  userIds: readonly string[],
): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  const settings = await models.settings
    .find(
      { userId: { $in: userIds.map((id) => new Types.ObjectId(id)) } },
      { userId: 1, muteAll: 1, mutedConverseIds: 1 },
    )
    .lean<Array<{ userId: Types.ObjectId; muteAll?: boolean; mutedConverseIds?: Types.ObjectId[] }>>();
  return new Set(
    settings
      .filter((s) => s.muteAll || (s.mutedConverseIds ?? []).some((c) => c.toHexString() === converseId))
      .map((s) => s.userId.toHexString()),
  );
}
