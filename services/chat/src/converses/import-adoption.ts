import { announce, EVENTS } from '@im/sdk';
import type { DmConverse } from '@im/protocol';
import { Types } from 'mongoose';
import type { ServiceSchema } from 'moleculer';
import type { ChatDeps, Ctx } from '../deps.ts';
import type { ConverseDoc } from '../models.ts';
import { chatParams } from '../params.ts';

/**
 * DMs an import wrote straight into the database become known to the
 * running platform as if they had been opened here: in their people's DM
 * index, and announced (`chat.dm.opened`) so their open apps list them.
 * Safe to repeat. Answers how many it found.
 */
export const importAdoptionActions = ({
  models,
  dmIndex,
}: Pick<ChatDeps, 'models' | 'dmIndex'>): ServiceSchema['actions'] => ({
  adoptImportedDms: {
    visibility: 'public' as const,
    params: chatParams.adoptImportedDms,
    async handler(ctx: Ctx<{ converseIds: string[] }>): Promise<number> {
      const docs = await models.converses
        .find({ _id: { $in: ctx.params.converseIds.map((id) => new Types.ObjectId(id)) }, type: 'dm' })
        .lean<ConverseDoc[]>();
      for (const doc of docs) {
        const dm: DmConverse = {
          id: doc._id.toHexString(),
          type: 'dm',
          memberIds: (doc.memberIds ?? []).map((id) => id.toHexString()),
        };
        await dmIndex.opened(dm.id, dm.memberIds);
        announce(ctx, EVENTS.dmOpened, { converse: dm });
      }
      return docs.length;
    },
  },
});
