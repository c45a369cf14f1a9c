import type { UserModel } from './models.ts';

/**
 * At start: the live accounts named in ADMIN_USERNAMES get the stored
 * server-admin flag, and accounts whose name left the list lose it. Deleted
 * accounts carry a tombstone name (theirs stays reserved), so a name of the
 * list never reaches a newcomer through them. Every user node does the same;
 * both writes are idempotent.
 */
export async function syncServerAdmins(users: UserModel, adminUsernames: readonly string[]): Promise<void> {
  const names = [...adminUsernames];
  await users.updateMany(
    {
      username: { $in: names },
      status: { $ne: 'deleted' },
      bot: { $exists: false },
      // An import's account of that name belongs to whoever it is handed to: not an admin by its name alone.
      imported: { $ne: true },
      serverAdmin: { $ne: true },
    },
    { $set: { serverAdmin: true } },
  );
  await users.updateMany({ serverAdmin: true, username: { $nin: names } }, { $unset: { serverAdmin: 1 } });
}
