import type { OwnEmail, OwnUser, PublicUser } from '@im/protocol';
import type { UserDoc } from './models.ts';
import { ownStatus } from './status/user-status.ts';

export function toPublicUser(
  doc: Pick<UserDoc, '_id' | 'username' | 'nickname' | 'avatar' | 'createdAt'> &
    Partial<Pick<UserDoc, 'bot' | 'imported'>>,
): PublicUser {
  return {
    id: doc._id.toHexString(),
    username: doc.username,
    nickname: doc.nickname,
    ...(doc.avatar ? { avatar: doc.avatar } : {}),
    createdAt: doc.createdAt.toISOString(),
    ...(doc.bot ? { bot: true as const } : {}),
    ...(doc.imported === true ? { imported: true as const } : {}),
  };
}

/** The e-mail fields only the account's owner sees. */
export const toOwnEmail = (doc: Pick<UserDoc, 'email' | 'verifiedEmail' | 'emailNotifications'>): OwnEmail => ({
  ...(doc.email !== undefined ? { email: doc.email } : {}),
  emailVerified: doc.verifiedEmail !== undefined,
  emailNotifications: doc.emailNotifications ?? '10m',
});

/** The caller's own profile: the public one, its e-mail fields and its status. */
export const toOwnUser = (doc: UserDoc): OwnUser => ({
  ...toPublicUser(doc),
  ...toOwnEmail(doc),
  status: ownStatus(doc.presenceStatus, Date.now()),
});
