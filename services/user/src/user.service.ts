import type { AuthResult, PublicUser } from '@im/protocol';
import {
  announce,
  callerId,
  escapeRegex,
  EVENTS,
  ImError,
  RateLimiter,
  TokenService,
  type AppContext,
  type CallerMeta,
  type ServiceFactory,
  isDuplicateKeyError,
} from '@im/sdk';
import type { Context } from 'moleculer';
import { Types } from 'mongoose';
import { userParams } from './params.ts';
import { createPasswordHasher } from './password.ts';
import { toPublicUser } from './public-user.ts';
import { userModel, type UserDoc } from './user.model.ts';

type Ctx<P = Record<string, never>> = Context<P, CallerMeta>;

/** Accounts: registration, login, profiles, search. Signs access tokens. */
export const createUserService: ServiceFactory = (app: AppContext) => {
  const users = userModel(app.mongo!);
  const tokens = new TokenService(app.config.secret, app.config.tokenTtl);
  const passwords = createPasswordHasher(app.config.passwordHashMemoryKib);
  const limits = { enabled: app.config.rateLimit === 'on', ...(app.redis ? { redis: app.redis } : {}) };
  const registerPerAddress = new RateLimiter({ name: 'register-ip', points: 30, windowSeconds: 600 }, limits);
  const loginPerAddress = new RateLimiter({ name: 'login-ip', points: 60, windowSeconds: 60 }, limits);
  const loginPerAccount = new RateLimiter({ name: 'login-user', points: 10, windowSeconds: 60 }, limits);

  const findActive = async (id: string) => {
    const doc = Types.ObjectId.isValid(id) ? await users.findById(id).lean<UserDoc>() : null;
    if (!doc || doc.status !== 'active') throw new ImError('IM_ERR_NOT_FOUND', 'User not found');
    return doc;
  };

  const authResult = async (doc: UserDoc): Promise<AuthResult> => ({
    token: await tokens.sign(doc._id.toHexString()),
    user: toPublicUser(doc),
  });

  return {
    name: 'user',
    async started() {
      await users.createIndexes();
    },
    actions: {
      register: {
        params: userParams.register,
        async handler(ctx: Ctx<{ username: string; password: string; nickname?: string }>): Promise<AuthResult> {
          await registerPerAddress.consume(ctx.meta.ip ?? 'local');
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
        async handler(ctx: Ctx<{ username: string; password: string }>): Promise<AuthResult> {
          await loginPerAddress.consume(ctx.meta.ip ?? 'local');
          await loginPerAccount.consume(ctx.params.username);
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
        async handler(ctx: Ctx<{ nickname?: string; avatar?: string }>): Promise<PublicUser> {
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

      get: {
        params: userParams.get,
        async handler(ctx: Ctx<{ userId: string }>): Promise<PublicUser> {
          callerId(ctx);
          return toPublicUser(await findActive(ctx.params.userId));
        },
      },

      /** Users whose username or nickname starts with q (case-insensitive). */
      search: {
        params: userParams.search,
        async handler(ctx: Ctx<{ q: string; limit?: number }>): Promise<PublicUser[]> {
          callerId(ctx);
          const prefix = new RegExp(`^${escapeRegex(ctx.params.q.toLowerCase())}`);
          const docs = await users
            .find({ status: 'active', $or: [{ username: prefix }, { nicknameLower: prefix }] })
            .sort({ username: 1 })
            .limit(ctx.params.limit ?? 50)
            .lean<UserDoc[]>();
          return docs.map(toPublicUser);
        },
      },

      /** Public profiles by id, for other services (unknown or inactive ids are left out). */
      getMany: {
        visibility: 'public' as const,
        params: userParams.getMany,
        async handler(ctx: Ctx<{ ids: string[] }>): Promise<Record<string, PublicUser>> {
          const docs = await users.find({ _id: { $in: ctx.params.ids }, status: 'active' }).lean<UserDoc[]>();
          return Object.fromEntries(docs.map((d) => [d._id.toHexString(), toPublicUser(d)]));
        },
      },

      /** Ids of active users by username (unknown names are left out), for resolving @mentions. */
      idsByUsernames: {
        visibility: 'public' as const,
        params: userParams.idsByUsernames,
        async handler(ctx: Ctx<{ usernames: string[] }>): Promise<Record<string, string>> {
          const names = ctx.params.usernames.map((n) => n.toLowerCase());
          const docs = await users
            .find({ username: { $in: names }, status: 'active' }, { username: 1 })
            .lean<UserDoc[]>();
          return Object.fromEntries(docs.map((d) => [d.username, d._id.toHexString()]));
        },
      },

      /** Whether tokens of this user may be used (gateways cache the answer). */
      isActive: {
        visibility: 'public' as const,
        params: userParams.isActive,
        async handler(ctx: Ctx<{ userId: string }>): Promise<boolean> {
          const doc = await users.findById(ctx.params.userId, { status: 1 }).lean<Pick<UserDoc, 'status'>>();
          return doc?.status === 'active';
        },
      },

      /** Operator action (no HTTP route): a banned user's tokens stop working at once. */
      setBanned: {
        visibility: 'public' as const,
        params: userParams.setBanned,
        async handler(ctx: Ctx<{ userId: string; banned: boolean }>): Promise<void> {
          const from = ctx.params.banned ? 'active' : 'banned';
          const to = ctx.params.banned ? 'banned' : 'active';
          const doc = await users.findOneAndUpdate({ _id: ctx.params.userId, status: from }, { $set: { status: to } });
          if (!doc && !(await users.exists({ _id: ctx.params.userId, status: to })))
            throw new ImError('IM_ERR_NOT_FOUND', 'User not found');
          if (doc && ctx.params.banned) announce(ctx, EVENTS.userDeactivated, { userId: ctx.params.userId });
        },
      },
    },
  };
};
