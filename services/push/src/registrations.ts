import { isDuplicateKeyError, conflict } from '@im/sdk';
import type { Model, Types } from 'mongoose';

/** Web Push subscriptions, and mobile devices, a user may have: each adds a request per notification. */
export const REGISTRATIONS_PER_USER = 10;

/**
 * Registers a destination (`key` names it: an endpoint, a device token) for
 * `userId`, or refreshes the user's own registration of it. A destination
 * registered by another user is not moved: 409 (taking someone's endpoint or
 * token would send them the caller's notifications and stop theirs). Past
 * REGISTRATIONS_PER_USER the user's oldest registrations go.
 */
export async function register<D extends { userId: Types.ObjectId; createdAt?: Date }>(
  model: Model<D>,
  userId: string,
  key: Record<string, string>,
  fields: Record<string, string>,
): Promise<void> {
  // Matched on the destination and the user: the unique index on the destination refuses
  // the insert when another user holds it, so the check and the write are one step.
  const upsert = () =>
    model.updateOne({ ...key, userId }, { $set: fields, $setOnInsert: { createdAt: new Date() } }, { upsert: true });
  try {
    await upsert();
  } catch (err) {
    if (!isDuplicateKeyError(err)) throw err;
    // The same user's concurrent registration of it won the insert: this one updates it.
    const holder = await model.findOne(key, { userId: 1 }).lean<{ userId: Types.ObjectId }>();
    if (holder?.userId.toHexString() !== userId)
      throw conflict('Registered by another account: unsubscribe there first');
    await upsert();
  }
  await keepNewest(model, userId);
}

/** Removes a user's registrations past the newest REGISTRATIONS_PER_USER (the 11th replaces the oldest). */
async function keepNewest<D>(model: Model<D>, userId: string): Promise<void> {
  const older = await model
    .find({ userId }, { _id: 1 })
    .sort({ createdAt: -1, _id: -1 })
    .skip(REGISTRATIONS_PER_USER)
    .lean<Array<{ _id: Types.ObjectId }>>();
  if (older.length > 0) await model.deleteMany({ _id: { $in: older.map((d) => d._id) } });
}
