import type { Session } from '@im/protocol';
import {
  announce,
  callerId,
  EVENTS,
  ImError,
  type ActionParams,
  type ActionResult,
  type Params,
  type Ctx,
  notFound,
  conflict,
  defineActions,
} from '@im/sdk';
import type { UserDeps } from './deps.ts';
import type { UserDoc } from './models.ts';
import { userParams } from './params.ts';

/** The caller's session (every token carries one; the gateway puts it in meta). */
const currentSession = (ctx: Ctx<object>): string => {
  const id = ctx.meta.user?.sessionId;
  if (!id) throw new ImError('IM_ERR_UNAUTHORIZED');
  return id;
};

/**
 * Revokes sessions and tells every gateway (their tokens get 401, their
 * sockets close). The event leaves only once the revocation is written.
 */
export async function endSessions(
  deps: Pick<UserDeps, 'sessions'>,
  ctx: Ctx<object>,
  userId: string,
  which: { only?: string; except?: string } = {},
): Promise<string[]> {
  const sessionIds = await deps.sessions.revoke(userId, which);
  if (sessionIds.length > 0) announce(ctx, EVENTS.sessionsRevoked, { userId, sessionIds });
  return sessionIds;
}

/**
 * Ends the personal feed token: its feed URLs answer 404 on every gateway at
 * once. A leaked feed URL must not outlive what the owner does to cut off a
 * thief (a new password, "log out everywhere").
 */
async function endFeedToken(deps: Pick<UserDeps, 'users'>, ctx: Ctx<object>, userId: string): Promise<void> {
  await deps.users.updateOne({ _id: userId }, { $unset: { feedTokenHash: 1 } });
  announce(ctx, EVENTS.feedTokenReplaced, { userId });
}

/** Logout, the session list, revoking one session, changing the password; and the gateways' session check. */
export const sessionActions = (deps: UserDeps) => {
  const { users, sessions, passwords } = deps;
  return defineActions('user', {
    logout: {
      params: userParams.logout,
      async handler(ctx: Ctx): Promise<void> {
        await endSessions(deps, ctx, callerId(ctx), { only: currentSession(ctx) });
      },
    },

    /** "Log out everywhere": every session of mine, this one too, and my feed token. */
    logoutEverywhere: {
      params: userParams.logoutEverywhere,
      async handler(ctx: Ctx): Promise<void> {
        const userId = callerId(ctx);
        await endFeedToken(deps, ctx, userId);
        await endSessions(deps, ctx, userId);
      },
    },

    sessions: {
      params: userParams.sessions,
      handler(ctx: Ctx): Promise<Session[]> {
        return sessions.list(callerId(ctx), ctx.meta.user?.sessionId);
      },
    },

    revokeSession: {
      params: userParams.revokeSession,
      async handler(ctx: Ctx<Params<typeof userParams.revokeSession>>): Promise<void> {
        const revoked = await endSessions(deps, ctx, callerId(ctx), { only: ctx.params.sessionId });
        // Someone else's session, or one already over, does not exist for the caller.
        if (revoked.length === 0) throw notFound('session');
      },
    },

    /** Checks the current password, stores the new one, and ends every other session and the feed token. */
    changePassword: {
      params: userParams.changePassword,
      rateLimit: 'password',
      async handler(ctx: Ctx<Params<typeof userParams.changePassword>>): Promise<void> {
        const userId = callerId(ctx);
        const current = currentSession(ctx);
        const doc = await users.findOne({ _id: userId, status: 'active' }, { passwordHash: 1 }).lean<UserDoc>();
        if (!doc) throw new ImError('IM_ERR_UNAUTHORIZED');
        if (doc.passwordHash === undefined) throw new ImError('IM_ERR_NO_PASSWORD');
        if (!(await passwords.verify(doc.passwordHash, ctx.params.currentPassword)))
          throw new ImError('IM_ERR_WRONG_PASSWORD');
        const passwordHash = await passwords.hash(ctx.params.newPassword);
        // Only if the hash is still the one checked: two changes at once cannot both win.
        const { matchedCount } = await users.updateOne(
          { _id: userId, status: 'active', passwordHash: doc.passwordHash },
          { $set: { passwordHash }, $unset: { feedTokenHash: 1 } },
        );
        if (matchedCount === 0) throw conflict('The password changed meanwhile; try again');
        announce(ctx, EVENTS.feedTokenReplaced, { userId });
        await endSessions(deps, ctx, userId, { except: current });
      },
    },

    /** For gateways, on the first use of tokens' sessions (batched there, then cached for a minute). */
    sessionsLive: {
      visibility: 'public' as const,
      params: userParams.sessionsLive,
      handler(ctx: Ctx<ActionParams<'user.sessionsLive'>>): Promise<ActionResult<'user.sessionsLive'>> {
        return sessions.liveOf(ctx.params.claims);
      },
    },
  });
};
