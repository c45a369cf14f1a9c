import type { Types } from 'mongoose';
import { WAITING_STATUSES, type IntegrationModels } from './models.ts';

/** A dropped delivery keeps its log entry, not its body: it will never be sent. */
const dropped = (lastError: string) => ({
  $set: { status: 'dropped' as const, lastError },
  $unset: { body: 1, nextAttemptAt: 1 },
});

/**
 * How often a failing hook's backlog is trimmed: every this many new
 * deliveries (per node), down to `max - every + 1`, so that it never passes
 * `max` in between (with several integration nodes, by less than `every`
 * per further node). Trimming reads the hook's waiting entries; doing it on
 * every message of a group with a dead receiver made its sends much slower
 * on the embedded database. Exact (every message) for small limits.
 */
export const trimEvery = (max: number): number => Math.max(1, Math.floor(max / 20));

/**
 * Marks dropped the hook's waiting deliveries beyond the newest `keep`, so a
 * receiver that stays down cannot make the backlog (and what is reloaded at
 * start) grow past WEBHOOK_MAX_WAITING (`max`, named in their log lines).
 * Their queue jobs end at their next wake-up, when they find the entry no
 * longer waiting. Answers how many were dropped.
 */
export async function capBacklog(
  models: Pick<IntegrationModels, 'deliveries'>,
  hookId: Types.ObjectId,
  keep: number,
  max: number,
): Promise<number> {
  const stale = await models.deliveries
    .find({ hookId, status: { $in: WAITING_STATUSES } }, { _id: 1 })
    .sort({ at: -1, _id: -1 })
    .skip(keep)
    .limit(10_000)
    .lean<Array<{ _id: Types.ObjectId }>>();
  if (stale.length === 0) return 0;
  const { modifiedCount } = await models.deliveries.updateMany(
    { _id: { $in: stale.map((d) => d._id) }, status: { $in: WAITING_STATUSES } },
    dropped(`Dropped: more than ${max} deliveries were waiting`),
  );
  return modifiedCount;
}

/** Every delivery the hook still had waiting, dropped (it was disabled). */
export async function dropWaiting(
  models: Pick<IntegrationModels, 'deliveries'>,
  hookId: Types.ObjectId,
  why: string,
): Promise<void> {
  await models.deliveries.updateMany({ hookId, status: { $in: WAITING_STATUSES } }, dropped(why));
}
