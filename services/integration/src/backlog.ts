import type { Types } from 'mongoose';
import { WAITING_STATUSES, type IntegrationModels } from './models.ts';

/** A dropped delivery keeps its log entry, not its body: it will never be sent. */
const dropped = (lastError: string) => ({
  $set: { status: 'dropped' as const, lastError },
  $unset: { body: 1, nextAttemptAt: 1 },
});

/**
 * Marks dropped the hook's waiting deliveries beyond the newest `max`
 * (WEBHOOK_MAX_WAITING), so a receiver that stays down cannot make the
 * backlog (and what is reloaded at start) grow without bound. Their queue
 * jobs end at their next wake-up, when they find the entry no longer waiting.
 * Answers how many were dropped.
 */
export async function capBacklog(models: IntegrationModels, hookId: Types.ObjectId, max: number): Promise<number> {
  const stale = await models.deliveries
    .find({ hookId, status: { $in: WAITING_STATUSES } }, { _id: 1 })
    .sort({ at: -1, _id: -1 })
    .skip(max)
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
export async function dropWaiting(models: IntegrationModels, hookId: Types.ObjectId, why: string): Promise<void> {
  await models.deliveries.updateMany({ hookId, status: { $in: WAITING_STATUSES } }, dropped(why));
}
