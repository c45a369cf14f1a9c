import type { SavedMessage, SavedPage } from '@im/protocol';
import { callerId, notFound, type Ctx, type Params } from '@im/sdk';
import type { ChatDeps } from '../deps.ts';
import { messageViews } from '../messages/message-views.ts';
import type { SavedDoc } from './personal-models.ts';
import { personalParams } from './personal-params.ts';
import { visibleConverseIds } from '../converses/visible-converses.ts';
import { olderThanCursor, timeCursorOf } from './time-cursor.ts';

/**
 * Saved messages: one document per user and message. The listing keeps
 * only what the user can read now (converses they are still in and see,
 * messages not deleted), decided when read, so leaving a group or losing a
 * private panel hides its saved messages without a write.
 */
export const savedActions = ({ models, store, access, voters }: ChatDeps) => ({
  /** Idempotent: saving again keeps the first time. */
  save: {
    params: personalParams.save,
    async handler(ctx: Ctx<Params<typeof personalParams.save>>): Promise<void> {
      const userId = callerId(ctx);
      const { doc } = await access.requireMessage(ctx, ctx.params.messageId, userId);
      if (doc.deleted) throw notFound('message');
      await models.saved.updateOne(
        { userId, messageId: doc._id },
        { $setOnInsert: { converseId: doc.converseId, savedAt: new Date() } },
        { upsert: true },
      );
    },
  },

  /** Idempotent; my own entry goes even if I can no longer read its message. */
  unsave: {
    params: personalParams.save,
    async handler(ctx: Ctx<Params<typeof personalParams.save>>): Promise<void> {
      const userId = callerId(ctx);
      const { deletedCount } = await models.saved.deleteOne({ userId, messageId: ctx.params.messageId });
      if (deletedCount === 0) await access.requireMessage(ctx, ctx.params.messageId, userId);
    },
  },

  /** Newest saved first, paged by (savedAt, id); a page leaves out what I cannot read now. */
  saved: {
    params: personalParams.saved,
    async handler(ctx: Ctx<Params<typeof personalParams.saved>>): Promise<SavedPage> {
      const userId = callerId(ctx);
      const { cursor, limit = 50 } = ctx.params;
      const converseIds = await visibleConverseIds(ctx, store.dms, userId);
      const rows = await models.saved
        .find({ userId, converseId: { $in: converseIds }, ...olderThanCursor('savedAt', cursor) })
        .sort({ savedAt: -1, _id: -1 })
        .limit(limit + 1)
        .lean<SavedDoc[]>();
      const more = rows.length > limit;
      const page = rows.slice(0, limit);
      const docs = await store.read.byIds(
        page.map((r) => r.messageId),
        { live: true },
      );
      const views = new Map((await messageViews(models, docs, userId, voters)).map((m) => [m.id, m]));
      const items = page.flatMap((r): SavedMessage[] => {
        const message = views.get(r.messageId.toHexString());
        return message ? [{ ...message, savedAt: r.savedAt.toISOString() }] : [];
      });
      const last = page.at(-1);
      return { items, nextCursor: more && last ? timeCursorOf(last.savedAt, last._id) : null };
    },
  },
});
