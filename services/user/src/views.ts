import type { PublicUser } from '@im/protocol';
import type { UserDoc } from './models.ts';

export function toPublicUser(
  doc: Pick<UserDoc, '_id' | 'username' | 'nickname' | 'avatar' | 'createdAt'> & Partial<Pick<UserDoc, 'bot'>>,
): PublicUser {
  return {
    id: doc._id.toHexString(),
    username: doc.username,
    nickname: doc.nickname,
    ...(doc.avatar ? { avatar: doc.avatar } : {}),
    createdAt: doc.createdAt.toISOString(),
    ...(doc.bot ? { bot: true as const } : {}),
  };
}
