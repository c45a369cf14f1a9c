import { announce, EVENTS, type Ctx } from '@im/sdk';
import type { ServiceSchema } from 'moleculer';
import type { ChatDeps } from '../deps.ts';
import { chatParams } from '../params.ts';
import { toDm } from './dm-view.ts';

/**
 * DMs an import wrote straight into the database become known to the
 * running platform as if they had been opened here: in their people's DM
 * index, and announced (`chat.dm.opened`) so their open apps list them.
 * Safe to repeat. Answers how many it found.
 */
export const importAdoptionActions = ({ store }: Pick<ChatDeps, 'store'>): ServiceSchema['actions'] => ({
  adoptImportedDms: {
    visibility: 'public' as const,
    params: chatParams.adoptImportedDms,
    async handler(ctx: Ctx<{ converseIds: string[] }>): Promise<number> {
      const docs = await store.dms.adopt(ctx.params.converseIds);
      for (const doc of docs) announce(ctx, EVENTS.dmOpened, { converse: toDm(doc) });
      return docs.length;
    },
  },
});
