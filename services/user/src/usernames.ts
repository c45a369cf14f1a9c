import { randomBytes } from 'node:crypto';
import { isDuplicateKeyError, conflict, invalid } from '@im/sdk';
import type { FilterQuery, UpdateQuery } from 'mongoose';
import type { UserDoc, UserModel } from './models.ts';

/** Deleted accounts and removed bots are renamed `deleted-<id>`: nobody else may hold such a name. */
const TOMBSTONE_PREFIX = 'deleted-';

export const isTombstoneName = (name: string): boolean => name.startsWith(TOMBSTONE_PREFIX);

/** 400 for a name only deleted accounts may have. */
export function refuseTombstoneName(name: string, field = 'username'): void {
  if (!isTombstoneName(name)) return;
  const message = `'${field}' must not start with '${TOMBSTONE_PREFIX}'`;
  throw invalid(message, [{ field, type: 'forbidden', message }]);
}

/** A live account has it, or a deleted one had it (reserved for good). */
export const isUsernameUsed = async (users: UserModel, name: string): Promise<boolean> =>
  (await users.exists({ $or: [{ username: name }, { formerUsername: name }] })) !== null;

/** A deleted account had it: never given to anyone again, so nothing of that account passes to a newcomer. */
export const isUsernameRetired = async (users: UserModel, name: string): Promise<boolean> =>
  (await users.exists({ formerUsername: name })) !== null;

/**
 * Marks the account `filter` finds as deleted under its tombstone name,
 * keeping its username as `formerUsername` (reserved), with `update` besides.
 * When the tombstone is somehow taken (an account registered before such
 * names were refused), one with a random suffix is used: longer than any
 * registrable name, so it cannot be taken. Answers the account as it was
 * before, or null when `filter` finds none.
 */
export async function retireAccount(
  users: UserModel,
  filter: FilterQuery<UserDoc>,
  update: { $set?: Partial<UserDoc>; $unset?: Record<string, 1> } = {},
): Promise<UserDoc | null> {
  const current = await users.findOne(filter, { username: 1 }).lean<Pick<UserDoc, '_id' | 'username'>>();
  if (!current) return null;
  const id = current._id.toHexString();
  const tombstones = [`${TOMBSTONE_PREFIX}${id}`, `${TOMBSTONE_PREFIX}${id}-${randomBytes(4).toString('hex')}`];
  for (const tombstone of tombstones) {
    const change: UpdateQuery<UserDoc> = {
      $set: {
        ...update.$set,
        status: 'deleted',
        username: tombstone,
        ...(isTombstoneName(current.username) ? {} : { formerUsername: current.username }),
      },
      $unset: { serverAdmin: 1, ...update.$unset },
    };
    try {
      return await users.findOneAndUpdate({ ...filter, _id: current._id }, change).lean<UserDoc>();
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err;
    }
  }
  throw conflict('The account could not be renamed; try again');
}
