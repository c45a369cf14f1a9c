import type { InboxUnread, NotificationPage, NotificationSettings } from '@im/protocol';
import { announce, call, callerId, EVENTS, type ActionParams, type ActionResult, type Params, type Ctx } from '@im/sdk';
import { Types } from 'mongoose';
import { defaultOf } from './level-actions.ts';
import type { PushDeps } from './deps.ts';
import { unreadCount } from './inbox-count.ts';
import type { ConverseLevelDoc, NotificationDoc, SettingsDoc } from './models.ts';
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
   * Mentions, replies in threads I follow, reminders, and DMs received while
   * offline, newest first, of converses the caller can still read: one made
   * private since (or left) keeps its entries (marked read when access
   * went), which show again if access comes back.
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

  /** How many inbox entries I have not read (the bell's count). */
  unread: {
    params: pushParams.unread,
    async handler(ctx: Ctx): Promise<InboxUnread> {
      return { unread: await unreadCount(models, callerId(ctx)) };
    },
  },

  /** Marks every inbox entry read, or those up to `upTo` (an entry id, newest first means "this one and older"). */
  markRead: {
    params: pushParams.markRead,
    async handler(ctx: Ctx<Params<typeof pushParams.markRead>>): Promise<InboxUnread> {
      const userId = callerId(ctx);
      const { upTo } = ctx.params;
      const { modifiedCount } = await models.notifications.updateMany(
        { userId, readAt: null, ...(upTo ? { _id: { $lte: new Types.ObjectId(upTo) } } : {}) },
        { $set: { readAt: new Date() } },
      );
      const unread = await unreadCount(models, userId);
      if (modifiedCount > 0) announce(ctx, EVENTS.inboxUpdated, { userId, unread });
      return { unread };
    },
  },

  /** Mute-all, and every converse level I set (`mutedConverseIds`: those at `none`). */
  getSettings: {
    params: pushParams.getSettings,
    async handler(ctx: Ctx): Promise<NotificationSettings> {
      const userId = callerId(ctx);
      const [doc, levels] = await Promise.all([
        models.settings.findOne({ userId }).lean<SettingsDoc>(),
        models.levels.find({ userId }).lean<ConverseLevelDoc[]>(),
      ]);
      return toSettings(doc, levels);
    },
  },

  /**
   * Mute-all, and the converses at level `none`: each listed converse gets
   * level `none`, and a converse at `none` not listed goes back to its
   * default (the same as `PUT /api/converses/:id/notifications`).
   */
  updateSettings: {
    params: pushParams.updateSettings,
    async handler(ctx: Ctx<Params<typeof pushParams.updateSettings>>): Promise<NotificationSettings> {
      const userId = callerId(ctx);
      const me = new Types.ObjectId(userId);
      const doc = await models.settings
        .findOneAndUpdate(
          { userId },
          { $set: ctx.params.muteAll === undefined ? {} : { muteAll: ctx.params.muteAll } },
          { upsert: true, new: true },
        )
        .lean<SettingsDoc>();
      if (ctx.params.mutedConverseIds) {
        const listed = new Set(ctx.params.mutedConverseIds);
        const before = await models.levels
          .find({ userId: me, level: 'none' }, { converseId: 1 })
          .lean<ConverseLevelDoc[]>();
        const unmuted = before.map((l) => l.converseId).filter((id) => !listed.has(id.toHexString()));
        const muted = [...listed].filter((id) => !before.some((l) => l.converseId.toHexString() === id));
        await Promise.all([
          unmuted.length ? models.levels.deleteMany({ userId: me, converseId: { $in: unmuted } }) : undefined,
          muted.length
            ? models.levels.bulkWrite(
                muted.map((id) => ({
                  updateOne: {
                    filter: { userId: me, converseId: new Types.ObjectId(id) },
                    update: { $set: { level: 'none' as const }, $unset: { muteUntil: 1 as const } },
                    upsert: true,
                  },
                })),
                { ordered: false },
              )
            : undefined,
        ]);
        for (const id of muted)
          announce(ctx, EVENTS.converseNotifications, { userId, converseId: id, level: 'none', muteUntil: null });
        // Up to 1,000 unmuted at once: their defaults are looked up 50 at a time, not one after another.
        for (let at = 0; at < unmuted.length; at += 50) {
          const batch = unmuted.slice(at, at + 50).map((id) => id.toHexString());
          const levels = await Promise.all(batch.map((converseId) => defaultOf(ctx, converseId, userId)));
          batch.forEach((converseId, i) => {
            const level = levels[i];
            if (level) announce(ctx, EVENTS.converseNotifications, { userId, converseId, level, muteUntil: null });
          });
        }
      }
      const levels = await models.levels.find({ userId: me }).lean<ConverseLevelDoc[]>();
      return toSettings(doc, levels);
    },
  },
});
