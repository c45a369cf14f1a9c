import type { AuthResult, ClaimLink } from '@im/protocol';
import {
  announce,
  call,
  EVENTS,
  ImError,
  isDuplicateKeyError,
  type Params,
  type Ctx,
  conflict,
  defineActions,
} from '@im/sdk';
import { loadAdminTarget, requireServerAdmin } from './admin-guard.ts';
import { authResult } from './auth-result.ts';
import { claimLinkFor, newClaimNonce } from './claim-links.ts';
import type { UserDeps } from './deps.ts';
import type { UserDoc } from './models.ts';
import { userParams } from './params.ts';
import { isUsernameUsed, refuseTombstoneName } from './usernames.ts';
import { toPublicUser } from './views.ts';

const notImported = () => conflict('This account was not imported, or its owner has already claimed it');

/**
 * Handing over accounts an import made (`imported: true`, no password): a
 * server admin makes a claim link, and whoever opens it sets the password
 * (and may pick another username), once. Each link is bound to a nonce
 * stored on the account: a newer link replaces it and the claim removes it,
 * so only the newest link works, and only until it is used.
 */
export const claimActions = (deps: UserDeps) => {
  const { app, users, passwords, links, audit } = deps;

  /** 409 for a name of ADMIN_USERNAMES: those rights come by registering that name, not by a handed-over link. */
  const checkNewUsername = async (name: string): Promise<void> => {
    refuseTombstoneName(name);
    if (app.config.adminUsernames.includes(name) || (await isUsernameUsed(users, name)))
      throw new ImError('IM_ERR_USERNAME_TAKEN');
  };

  return defineActions('user', {
    /** A new claim link for an imported account (the previous one stops working); audited. */
    adminClaimLink: {
      params: userParams.adminClaimLink,
      rateLimit: 'moderate',
      async handler(ctx: Ctx<Params<typeof userParams.adminClaimLink>>): Promise<ClaimLink> {
        const actorId = await requireServerAdmin(users, ctx);
        const target = await loadAdminTarget(users, ctx, actorId);
        if (target.imported !== true) throw notImported();
        const nonce = newClaimNonce();
        const { matchedCount } = await users.updateOne(
          { _id: target._id, imported: true, status: { $ne: 'deleted' } },
          { $set: { claimNonce: nonce } },
        );
        if (matchedCount === 0) throw notImported();
        const link = await claimLinkFor(deps, target, nonce);
        await audit.record(actorId, {
          action: 'user.claimLink',
          target: { type: 'user', id: target._id.toHexString() },
          details: { username: target.username },
        });
        return link;
      },
    },

    /**
     * The claim page's form: the password (the rules of registration) and
     * perhaps a new username. The account stops being imported, and the
     * answer is a session, like registration's. Audited as the person's own act.
     */
    claim: {
      params: userParams.claim,
      rateLimit: 'login-ip',
      async handler(ctx: Ctx<Params<typeof userParams.claim>>): Promise<AuthResult> {
        const { userId, bound } = await links.verify('claim-account', ctx.params.token);
        const doc = await users.findOne({ _id: userId, status: { $ne: 'deleted' } }).lean<UserDoc>();
        if (!doc || bound === undefined) throw new ImError('IM_ERR_LINK_INVALID');
        if (doc.imported !== true || doc.claimNonce !== bound) throw new ImError('IM_ERR_LINK_USED');
        if (doc.status === 'deactivated') throw new ImError('IM_ERR_ACCOUNT_DEACTIVATED');
        const rename = ctx.params.username !== undefined && ctx.params.username !== doc.username;
        if (rename) await checkNewUsername(ctx.params.username!);
        const passwordHash = await passwords.hash(ctx.params.password);
        let claimed: UserDoc | null;
        try {
          // Only over the nonce the link carries: two uses at once, or a newer link, cannot both win.
          claimed = await users
            .findOneAndUpdate(
              { _id: userId, status: 'active', imported: true, claimNonce: bound },
              {
                $set: { passwordHash, ...(rename ? { username: ctx.params.username } : {}) },
                $unset: { imported: 1, claimNonce: 1 },
              },
              { new: true },
            )
            .lean<UserDoc>();
        } catch (err) {
          if (isDuplicateKeyError(err)) throw new ImError('IM_ERR_USERNAME_TAKEN');
          throw err;
        }
        if (!claimed) throw new ImError('IM_ERR_LINK_USED');
        await audit.record(userId, {
          action: 'user.claim',
          target: { type: 'user', id: userId },
          details: { username: claimed.username, ...(rename ? { importedAs: doc.username } : {}) },
        });
        const result = await authResult(deps, ctx, claimed);
        // Others show the account as imported (and perhaps under its old name) until they hear of it.
        const rooms = await call(ctx, 'chat.userRooms', { userId }).catch(() => ({ groups: [], dmIds: [] }));
        announce(ctx, EVENTS.userUpdated, {
          user: toPublicUser(claimed),
          groupIds: rooms.groups.map((g) => g.groupId),
          converseIds: rooms.dmIds,
        });
        return result;
      },
    },
  });
};
