import type { ConverseNotificationSetting, NotificationLevel } from '@im/protocol';
import { Types } from 'mongoose';
import type { ConverseLevelDoc, PushModels } from './models.ts';

/** Converses with this many members or more default to `mentions`; smaller ones (and DMs) to `all`. */
export const LARGE_CONVERSE_MEMBERS = 100;

/** The level of a converse nobody set: `all` in DMs and groups under 100 members, else `mentions`. */
export const defaultLevel = (kind: 'dm' | 'group', memberCount: number): NotificationLevel =>
  kind === 'dm' || memberCount < LARGE_CONVERSE_MEMBERS ? 'all' : 'mentions';

/** A stored level as the API shows it: a mute that ended is no mute. */
export const toSetting = (
  doc: Pick<ConverseLevelDoc, 'level' | 'muteUntil'>,
  now = Date.now(),
): ConverseNotificationSetting => ({
  level: doc.level,
  muteUntil: doc.muteUntil && doc.muteUntil.getTime() > now ? doc.muteUntil.toISOString() : null,
});

/** The level that decides now: a running mute counts as `none`. */
export const effectiveLevel = (setting: ConverseNotificationSetting): NotificationLevel =>
  setting.muteUntil ? 'none' : setting.level;

/**
 * Each of `userIds`' level in a converse, given its default, with mute-all
 * (`PUT /api/notifications/settings {muteAll}`) counting as `none`. Two
 * indexed reads for all of them.
 */
export async function levelsAmong(
  models: Pick<PushModels, 'settings' | 'levels'>,
  converseId: string,
  userIds: readonly string[],
  fallback: NotificationLevel,
): Promise<Map<string, NotificationLevel>> {
  const levels = new Map<string, NotificationLevel>(userIds.map((id) => [id, fallback]));
  if (userIds.length === 0) return levels;
  const ids = userIds.map((id) => new Types.ObjectId(id));
  const [docs, mutedAll] = await Promise.all([
    models.levels
      .find({ converseId: new Types.ObjectId(converseId), userId: { $in: ids } }, { userId: 1, level: 1, muteUntil: 1 })
      .lean<ConverseLevelDoc[]>(),
    models.settings
      .find({ userId: { $in: ids }, muteAll: true }, { userId: 1 })
      .lean<Array<{ userId: Types.ObjectId }>>(),
  ]);
  const now = Date.now();
  for (const doc of docs) levels.set(doc.userId.toHexString(), effectiveLevel(toSetting(doc, now)));
  for (const s of mutedAll) levels.set(s.userId.toHexString(), 'none');
  return levels;
}

/** Of a converse's members, those who chose `all` themselves (at most `max`): they hear every message even in a large converse. */
export async function choseAll(models: Pick<PushModels, 'levels'>, converseId: string, max: number): Promise<string[]> {
  const docs = await models.levels
    .find({ converseId: new Types.ObjectId(converseId), level: 'all' }, { userId: 1 })
    .limit(max)
    .lean<ConverseLevelDoc[]>();
  return docs.map((d) => d.userId.toHexString());
}

/**
 * Converses muted in the notification settings before there were levels
 * (`mutedConverseIds`) become level `none`; a level set since stays. Runs
 * at start on every node: the same writes, whoever does them first.
 */
export async function moveMutedConverses(models: Pick<PushModels, 'settings' | 'levels'>): Promise<void> {
  const legacy = await models.settings
    .find({ 'mutedConverseIds.0': { $exists: true } }, { userId: 1, mutedConverseIds: 1 })
    .lean<Array<{ _id: Types.ObjectId; userId: Types.ObjectId; mutedConverseIds: Types.ObjectId[] }>>();
  for (const s of legacy) {
    await models.levels.bulkWrite(
      s.mutedConverseIds.map((converseId) => ({
        updateOne: {
          filter: { userId: s.userId, converseId },
          update: { $setOnInsert: { level: 'none' } },
          upsert: true,
        },
      })),
      { ordered: false },
    );
    await models.settings.updateOne({ _id: s._id }, { $unset: { mutedConverseIds: 1 } });
  }
}
