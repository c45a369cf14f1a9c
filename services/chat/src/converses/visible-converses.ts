import { call } from '@im/sdk';
import { Types } from 'mongoose';
import type { Ctx } from '../deps.ts';
import type { ChatModels } from '../models.ts';

/** Every converse the user is in now: group panels they see (the group service's answer) and DMs. */
export async function visibleConverseIds(
  ctx: Ctx<object>,
  models: ChatModels,
  userId: string,
): Promise<Types.ObjectId[]> {
  const [groups, dms] = await Promise.all([
    call(ctx, 'group.userConverses', { userId }),
    models.converses.find({ memberIds: userId, type: 'dm' }, { _id: 1 }).lean<Array<{ _id: Types.ObjectId }>>(),
  ]);
  return [...groups.flatMap((g) => g.converseIds.map((id) => new Types.ObjectId(id))), ...dms.map((d) => d._id)];
}
