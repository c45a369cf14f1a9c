import type { AuthResult, PublicUser } from '@im/protocol';
import { announce, callerId, EVENTS, ImError, isDuplicateKeyError, type Params } from '@im/sdk';
import type { Ctx, UserDeps } from './deps.ts';
import type { UserDoc } from './models.ts';
import { userParams } from './params.ts';
import { toPublicUser } from './views.ts';

/** Registration, login and the caller's own account. */
export const accountActions = ({ users, tokens, passwords }: UserDeps) => {
  const authResult = async (doc: UserDoc): Promise<AuthResult> => ({
    token: await tokens.sign(doc._id.toHexString()),
    user: toPublicUser(doc),
  });

  const findActive = async (id: string) => {
    const doc = await users.findById(id).lean<UserDoc>();
    if (!doc || doc.status !== 'active') throw new ImError('IM_ERR_NOT_FOUND', 'User not found');
    return doc;
  };

  return {
    register: {
      params: userParams.register,
      rateLimit: 'register',
      async handler(ctx: Ctx<Params<typeof userParams.register>>): Promise<AuthResult> {
        const { username: name, password: pw } = ctx.params;
        const nick = ctx.params.nickname ?? name;
        if (await users.exists({ username: name })) throw new ImError('IM_ERR_USERNAME_TAKEN');
        try {
          const doc = await users.create({
            username: name,
            nickname: nick,
            nicknameLower: nick.toLowerCase(),
            passwordHash: await passwords.hash(pw),
          });
          return await authResult(doc.toObject());
        } catch (err) {
          // Two registrations raced past the exists() check: the unique index decides.
          if (isDuplicateKeyError(err)) throw new ImError('IM_ERR_USERNAME_TAKEN');
          throw err;
        }
      },
    },

    login: {
      params: userParams.login,
      // Per address, and per account name (case-blind), whoever asks.
      rateLimit: ['login-ip', 'login-user'],
      async handler(ctx: Ctx<Params<typeof userParams.login>>): Promise<AuthResult> {
        const doc = await users.findOne({ username: ctx.params.username }).lean<UserDoc>();
        const ok = await passwords.verify(doc?.passwordHash ?? (await passwords.dummyHash()), ctx.params.password);
        if (!doc || !ok || doc.status === 'deleted') throw new ImError('IM_ERR_INVALID_CREDENTIALS');
        if (doc.status === 'banned') throw new ImError('IM_ERR_FORBIDDEN', 'This account is banned');
        return authResult(doc);
      },
    },

    me: {
      params: userParams.me,
      async handler(ctx: Ctx): Promise<PublicUser> {
        return toPublicUser(await findActive(callerId(ctx)));
      },
    },

    updateMe: {
      params: userParams.updateMe,
      async handler(ctx: Ctx<Params<typeof userParams.updateMe>>): Promise<PublicUser> {
        const id = callerId(ctx);
        const set: Partial<UserDoc> = {};
        if (ctx.params.nickname !== undefined)
          Object.assign(set, { nickname: ctx.params.nickname, nicknameLower: ctx.params.nickname.toLowerCase() });
        if (ctx.params.avatar !== undefined) set.avatar = ctx.params.avatar;
        const doc = await users
          .findOneAndUpdate({ _id: id, status: 'active' }, { $set: set }, { new: true })
          .lean<UserDoc>();
        if (!doc) throw new ImError('IM_ERR_UNAUTHORIZED');
        const user = toPublicUser(doc);
        announce(ctx, EVENTS.userUpdated, { user });
        return user;
      },
    },

    /** Deletes the caller's account: tokens stop working and the username is freed. */
    deleteMe: {
      params: userParams.deleteMe,
      async handler(ctx: Ctx): Promise<void> {
        const id = callerId(ctx);
        const doc = await users.findOneAndUpdate(
          { _id: id, status: { $ne: 'deleted' } },
          {
            $set: {
              status: 'deleted',
              username: `deleted-${id}`,
              nickname: 'Deleted user',
              nicknameLower: 'deleted user',
              passwordHash: '-',
            },
            $unset: { avatar: 1 },
          },
        );
        if (!doc) throw new ImError('IM_ERR_UNAUTHORIZED');
        announce(ctx, EVENTS.userDeactivated, { userId: id });
      },
    },
  };
};
