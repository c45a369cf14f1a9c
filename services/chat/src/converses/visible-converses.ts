import { call, type Ctx } from '@im/sdk';
import { Types } from 'mongoose';
import type { DmRecords } from '../store/dm-records.ts';

/** Every converse the user is in now: group panels they see (the group service's answer) and DMs. */
export async function visibleConverseIds(ctx: Ctx<object>, dms: DmRecords, userId: string): Promise<Types.ObjectId[]> {
  const [groups, dmIds] = await Promise.all([call(ctx, 'group.userConverses', { userId }), dms.idsOf(userId)]);
  return [...groups.flatMap((g) => g.converseIds.map((id) => new Types.ObjectId(id))), ...dmIds];
}
