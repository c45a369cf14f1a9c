import type { PublicUser } from '@im/protocol';
import {
  callerId,
  escapeRegex,
  type ActionParams,
  type ActionResult,
  type Params,
  type Ctx,
  notFound,
  defineActions,
} from '@im/sdk';
import type { UserDeps } from './deps.ts';
import type { UserDoc } from './models.ts';
import { userParams } from './params.ts';
import { toPublicUser } from './views.ts';

/** Profiles and look-ups: for clients (get, search) and for other services. */
export const directoryActions = (deps: UserDeps) => {
  const { users } = deps;
  return defineActions('user', {
    get: {
      params: userParams.get,
      async handler(ctx: Ctx<Params<typeof userParams.get>>): Promise<PublicUser> {
        callerId(ctx);
        const doc = await users.findById(ctx.params.userId).lean<UserDoc>();
        if (!doc || doc.status !== 'active') throw notFound('user');
        return toPublicUser(doc);
      },
    },

    /** Users whose username or nickname starts with q (case-insensitive). */
    search: {
      params: userParams.search,
      rateLimit: 'search',
      async handler(ctx: Ctx<Params<typeof userParams.search>>): Promise<PublicUser[]> {
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
      async handler(ctx: Ctx<ActionParams<'user.getMany'>>): Promise<ActionResult<'user.getMany'>> {
        const docs = await users
          .find({ _id: { $in: ctx.params.ids }, ...(ctx.params.includeInactive ? {} : { status: 'active' }) })
          .lean<UserDoc[]>();
        return Object.fromEntries(docs.map((d) => [d._id.toHexString(), toPublicUser(d)]));
      },
    },

    /** Which of these users turned read receipts off (the chat service leaves them out of receipts). */
    receiptsHidden: {
      visibility: 'public' as const,
      params: userParams.receiptsHidden,
      async handler(ctx: Ctx<ActionParams<'user.receiptsHidden'>>): Promise<ActionResult<'user.receiptsHidden'>> {
        if (ctx.params.ids.length === 0) return [];
        const docs = await users
          .find({ _id: { $in: ctx.params.ids }, hideReadReceipts: true }, { _id: 1 })
          .lean<UserDoc[]>();
        return docs.map((d) => d._id.toHexString());
      },
    },

    /** Ids of active users by username (unknown names are left out), for resolving @mentions. */
    idsByUsernames: {
      visibility: 'public' as const,
      params: userParams.idsByUsernames,
      async handler(ctx: Ctx<ActionParams<'user.idsByUsernames'>>): Promise<ActionResult<'user.idsByUsernames'>> {
        const names = ctx.params.usernames.map((n) => n.toLowerCase());
        const docs = await users
          .find({ username: { $in: names }, status: 'active' }, { username: 1 })
          .lean<UserDoc[]>();
        return Object.fromEntries(docs.map((d) => [d.username, d._id.toHexString()]));
      },
    },
  });
};
