import type { ConverseNotificationSetting, NotificationLevel } from '@im/protocol';
import { announce, call, callerId, EVENTS, type Params, type Ctx, invalid, notFound } from '@im/sdk';
import { Types } from 'mongoose';
import { defaultLevel, toSetting } from './converse-levels.ts';
import type { PushDeps } from './deps.ts';
import type { ConverseLevelDoc } from './models.ts';
import { pushParams } from './params.ts';

/** A converse's default level for a user who can read it; null if they cannot (or it does not exist). */
export async function defaultOf(
  ctx: Ctx<object>,
  converseId: string,
  userId: string,
): Promise<NotificationLevel | null> {
  const access = await call(ctx, 'chat.access', { converseId, userId });
  if (!access) return null;
  if (access.kind === 'dm') return defaultLevel('dm', access.memberIds.length);
  const roster = await call(ctx, 'group.converseRoster', { converseId, maxIds: 0 });
  return defaultLevel('group', roster?.memberCount ?? 0);
}

/** The same 404 as chat's for a converse the caller is not in: outsiders learn nothing. */

/** A time in the future, or null (absent, null or past: no mute). A time that does not parse is a 400. */
function muteEnd(muteUntil: string | null | undefined): Date | null {
  if (muteUntil === undefined || muteUntil === null) return null;
  const at = new Date(muteUntil);
  if (Number.isNaN(at.getTime()))
    throw invalid("'muteUntil' must be a date and time (ISO 8601)", [
      { field: 'muteUntil', type: 'date', message: 'not a date' },
    ]);
  return at.getTime() > Date.now() ? at : null;
}

/** `GET`/`PUT /api/converses/:id/notifications`: my notification level of one converse. */
export const levelActions = ({ models }: PushDeps) => ({
  converseLevel: {
    params: pushParams.converseLevel,
    async handler(ctx: Ctx<Params<typeof pushParams.converseLevel>>): Promise<ConverseNotificationSetting> {
      const userId = callerId(ctx);
      const { converseId } = ctx.params;
      const fallback = await defaultOf(ctx, converseId, userId);
      if (!fallback) throw notFound('converse');
      const doc = await models.levels
        .findOne({ userId: new Types.ObjectId(userId), converseId: new Types.ObjectId(converseId) })
        .lean<ConverseLevelDoc>();
      return doc ? toSetting(doc) : { level: fallback, muteUntil: null };
    },
  },

  setConverseLevel: {
    params: pushParams.setConverseLevel,
    async handler(ctx: Ctx<Params<typeof pushParams.setConverseLevel>>): Promise<ConverseNotificationSetting> {
      const userId = callerId(ctx);
      const { converseId, level } = ctx.params;
      const until = muteEnd(ctx.params.muteUntil);
      if (!(await defaultOf(ctx, converseId, userId))) throw notFound('converse');
      const doc = await models.levels
        .findOneAndUpdate(
          { userId: new Types.ObjectId(userId), converseId: new Types.ObjectId(converseId) },
          until ? { $set: { level, muteUntil: until } } : { $set: { level }, $unset: { muteUntil: 1 } },
          { upsert: true, new: true },
        )
        .lean<ConverseLevelDoc>();
      const setting = toSetting(doc!);
      announce(ctx, EVENTS.converseNotifications, { userId, converseId, ...setting });
      return setting;
    },
  },
});
