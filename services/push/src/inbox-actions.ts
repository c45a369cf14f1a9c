import type { NotificationPage, NotificationSettings } from '@im/protocol';
import { call, callerId, type ActionParams, type ActionResult, type Params } from '@im/sdk';
import { Types } from 'mongoose';
import type { Ctx, PushDeps } from './deps.ts';
import type { NotificationDoc, SettingsDoc } from './models.ts';
import { mutedAmong } from './muted.ts';
import { pushParams } from './params.ts';
import { toNotification, toSettings } from './views.ts';

/** Of the converses of these entries, those the user may read now (one cached access check each). */
async function readableConverses(ctx: Ctx<object>, userId: string, docs: NotificationDoc[]): Promise<Set<string>> {
  const converseIds = [...new Set(docs.map((d) => d.converseId.toHexString()))];
  const access = await Promise.all(converseIds.map((converseId) => call(ctx, 'chat.access', { converseId, userId })));
  return new Set(converseIds.filter((_, i) => access[i] !== null));
}

/** The inbox of what reached a user while away, and what they muted. */
export const inboxActions = ({ models }: PushDeps) => ({
  /**
   * Mentions and DMs received while offline, newest first, of converses the
   * caller can still read: one made private since (or left) keeps its
   * entries, which show again if access comes back.
   */
  inbox: {
    params: pushParams.inbox,
    async handler(ctx: Ctx<Params<typeof pushParams.inbox>>): Promise<NotificationPage> {
      const userId = callerId(ctx);
      const limit = ctx.params.limit ?? 50;
      const docs = await models.notifications
        .find({ userId, ...(ctx.params.cursor ? { _id: { $lt: ctx.params.cursor } } : {}) })
        .sort({ _id: -1 })
        .limit(limit + 1)
        .lean<NotificationDoc[]>();
      const page = docs.slice(0, limit);
      const readable = await readableConverses(ctx, userId, page);
      return {
        items: page.filter((d) => readable.has(d.converseId.toHexString())).map(toNotification),
        nextCursor: docs.length > limit ? page.at(-1)!._id.toHexString() : null,
      };
    },
  },

  /** For the mail service: of these recipients of a message, who muted its converse (or everything). */
  mutedAmong: {
    visibility: 'public' as const,
    params: pushParams.mutedAmong,
    async handler(ctx: Ctx<ActionParams<'push.mutedAmong'>>): Promise<ActionResult<'push.mutedAmong'>> {
      return [...(await mutedAmong(models, ctx.params.converseId, ctx.params.userIds))];
    },
  },

  getSettings: {
    params: pushParams.getSettings,
    async handler(ctx: Ctx): Promise<NotificationSettings> {
      return toSettings(await models.settings.findOne({ userId: callerId(ctx) }).lean<SettingsDoc>());
    },
  },

  updateSettings: {
    params: pushParams.updateSettings,
    async handler(ctx: Ctx<Params<typeof pushParams.updateSettings>>): Promise<NotificationSettings> {
      const userId = callerId(ctx);
      const set: Record<string, unknown> = {};
      if (ctx.params.muteAll !== undefined) set.muteAll = ctx.params.muteAll;
      if (ctx.params.mutedConverseIds)
        set.mutedConverseIds = ctx.params.mutedConverseIds.map((id) => new Types.ObjectId(id));
      const doc = await models.settings
        .findOneAndUpdate({ userId }, { $set: set }, { upsert: true, new: true })
        .lean<SettingsDoc>();
      return toSettings(doc);
    },
  },
});
