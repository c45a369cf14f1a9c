import type { AdminUser, AdminUserPage, AuthOptions, ResetLink, ServerSettings } from '@im/protocol';
import {
  announce,
  escapeRegex,
  EVENTS,
  ImError,
  type ActionParams,
  type ActionResult,
  type Params,
  type Ctx,
  forbidden,
  defineActions,
} from '@im/sdk';
import type { UserDeps } from './deps.ts';
import type { UserDoc } from './models.ts';
import { loadAdminTarget, requireServerAdmin as requireAdminCaller } from './admin-guard.ts';
import { userParams } from './params.ts';
import { resetUrlFor } from './email-links.ts';
import { endSessions } from './session-actions.ts';
import { toPublicUser } from './views.ts';

/** Server administration (the accounts' stored flag): users, deactivation, the registration mode. */
export const adminActions = (deps: UserDeps) => {
  const { app, users, sessions, registration, audit } = deps;

  const toAdminUser = (d: UserDoc, lastSeen: Map<string, Date>): AdminUser => ({
    ...toPublicUser(d),
    active: d.status === 'active',
    serverAdmin: d.serverAdmin === true,
    lastSeenAt: lastSeen.get(d._id.toHexString())?.toISOString() ?? null,
  });

  const requireServerAdmin = (ctx: Ctx<object>) => requireAdminCaller(users, ctx);
  const loadTarget = (ctx: Ctx<{ userId: string }>, actorId: string) => loadAdminTarget(users, ctx, actorId);

  /**
   * Moves an account between active and deactivated; false when it already
   * was where it is sent (nothing to record then). Otherwise audited.
   */
  const setStatus = async (actorId: string, target: UserDoc, to: 'active' | 'deactivated'): Promise<boolean> => {
    const from = to === 'active' ? 'deactivated' : 'active';
    const changed = await users.updateOne({ _id: target._id, status: from }, { $set: { status: to } });
    if (changed.modifiedCount === 0) return false;
    await audit.record(actorId, {
      action: to === 'active' ? 'user.activate' : 'user.deactivate',
      target: { type: 'user', id: target._id.toHexString() },
      details: { username: target.username },
    });
    return true;
  };

  return defineActions('user', {
    /** For the sign-in screen: whether it offers registration, and how. */
    authOptions: {
      params: userParams.authOptions,
      async handler(): Promise<AuthOptions> {
        return {
          registration: await registration.mode(),
          ...(app.config.oidcIssuer ? { oidc: { label: app.config.oidcButtonLabel } } : {}),
          maxUploadBytes: app.config.fileMaxBytes,
          email: app.config.smtpUrl !== undefined,
          passwordReset: app.config.smtpUrl !== undefined,
        };
      },
    },

    /** A password-reset link for an account, for the admin to hand over (works without SMTP); audited. */
    adminResetLink: {
      params: userParams.adminResetLink,
      rateLimit: 'moderate',
      async handler(ctx: Ctx<Params<typeof userParams.adminResetLink>>): Promise<ResetLink> {
        const actorId = await requireServerAdmin(ctx);
        const target = await loadTarget(ctx, actorId);
        if (target.passwordHash === undefined) throw new ImError('IM_ERR_NO_PASSWORD');
        const url = await resetUrlFor(deps, target);
        await audit.record(actorId, {
          action: 'user.resetLink',
          target: { type: 'user', id: target._id.toHexString() },
          details: { username: target.username },
        });
        return { url };
      },
    },

    adminUsers: {
      params: userParams.adminUsers,
      async handler(ctx: Ctx<Params<typeof userParams.adminUsers>>): Promise<AdminUserPage> {
        await requireServerAdmin(ctx);
        const limit = ctx.params.limit ?? 50;
        const prefix = ctx.params.q ? new RegExp(`^${escapeRegex(ctx.params.q.toLowerCase())}`) : undefined;
        const docs = await users
          .find({
            status: { $ne: 'deleted' },
            ...(prefix ? { $or: [{ username: prefix }, { nicknameLower: prefix }] } : {}),
            ...(ctx.params.cursor ? { _id: { $gt: ctx.params.cursor } } : {}),
          })
          .sort({ _id: 1 })
          .limit(limit + 1)
          .lean<UserDoc[]>();
        const page = docs.slice(0, limit);
        const lastSeen = await sessions.lastSeen(page.map((d) => d._id));
        return {
          items: page.map((d) => toAdminUser(d, lastSeen)),
          nextCursor: docs.length > limit ? page.at(-1)!._id.toHexString() : null,
        };
      },
    },

    /** Login refused, every session ended (their sockets close on every gateway). Server admins cannot be. */
    deactivate: {
      params: userParams.deactivate,
      rateLimit: 'moderate',
      async handler(ctx: Ctx<Params<typeof userParams.deactivate>>): Promise<void> {
        const actorId = await requireServerAdmin(ctx);
        const target = await loadTarget(ctx, actorId);
        if (target.serverAdmin === true)
          throw forbidden(
            'A server administrator cannot be deactivated (remove them from ADMIN_USERNAMES and restart first)',
          );
        if (!(await setStatus(actorId, target, 'deactivated'))) return;
        await endSessions(deps, ctx, ctx.params.userId);
        announce(ctx, EVENTS.userDeactivated, { userId: ctx.params.userId });
      },
    },

    activate: {
      params: userParams.activate,
      rateLimit: 'moderate',
      async handler(ctx: Ctx<Params<typeof userParams.activate>>): Promise<void> {
        const actorId = await requireServerAdmin(ctx);
        await setStatus(actorId, await loadTarget(ctx, actorId), 'active');
      },
    },

    settings: {
      params: userParams.settings,
      async handler(ctx: Ctx): Promise<ServerSettings> {
        await requireServerAdmin(ctx);
        return { registration: await registration.mode() };
      },
    },

    updateSettings: {
      params: userParams.updateSettings,
      rateLimit: 'moderate',
      async handler(ctx: Ctx<Params<typeof userParams.updateSettings>>): Promise<ServerSettings> {
        const actorId = await requireServerAdmin(ctx);
        const mode = ctx.params.registration;
        const before = await registration.set(mode, actorId);
        if (before !== mode)
          await audit.record(actorId, {
            action: 'settings.update',
            target: { type: 'settings', id: 'registration' },
            details: { from: before, to: mode },
          });
        return { registration: mode };
      },
    },

    /** For other services (moderation): whether a user may use /api/admin. */
    isServerAdmin: {
      visibility: 'public' as const,
      params: userParams.isServerAdmin,
      async handler(ctx: Ctx<ActionParams<'user.isServerAdmin'>>): Promise<ActionResult<'user.isServerAdmin'>> {
        const doc = await users.findById(ctx.params.userId, { serverAdmin: 1, status: 1 }).lean<UserDoc>();
        return doc?.status === 'active' && doc.serverAdmin === true;
      },
    },
  });
};
