import type { AuthResult, Me, OwnUser } from '@im/protocol';
import {
  announce,
  call,
  callerId,
  EVENTS,
  ImError,
  isDuplicateKeyError,
  rateLimitKey,
  type Params,
  type Ctx,
  notFound,
  conflict,
  defineActions,
  unauthorized,
} from '@im/sdk';
import { authResult } from './auth-result.ts';
import type { UserDeps } from './deps.ts';
import type { UserDoc } from './models.ts';
import { userParams } from './params.ts';
import { endSessions } from './session-actions.ts';
import { addressChange, sendVerification } from './email-actions.ts';
import { isUsernameRetired, refuseTombstoneName, retireAccount } from './usernames.ts';
import { toOwnEmail, toOwnUser, toPublicUser } from './views.ts';
import { announceStatus } from './status/announce-status.ts';
import { applyStatusChange } from './status/status-update.ts';
import { nextChangeAt, ownStatus, type StoredStatus } from './status/user-status.ts';

/** `avatar` naming a file of this server (`/api/files/:id`, optionally its thumbnail). */
const OWN_FILE = /^\/api\/files\/([0-9a-f]{24})/;

const retired = () => conflict('This username belonged to a deleted account and stays reserved');

/** Registration, login and the caller's own account. */
export const accountActions = (deps: UserDeps) => {
  const { app, users, passwords, registration } = deps;
  const limits = app.rateLimits;
  const isAdminName = (username: string) => app.config.adminUsernames.includes(username);

  const findActive = async (id: string) => {
    const doc = await users.findById(id).lean<UserDoc>();
    if (!doc || doc.status !== 'active') throw notFound('user');
    return doc;
  };

  return defineActions('user', {
    /**
     * REGISTRATION (or the server admins' stored choice) decides who may;
     * ADMIN_USERNAMES always may, and become server admins. A deleted
     * account's name is never given again (409), so neither its admin rights
     * nor anything else of it pass to a newcomer. With an invite code the new
     * account joins its group; if that join fails the account is taken back,
     * so a refused registration leaves nothing behind.
     */
    register: {
      params: userParams.register,
      rateLimit: 'register',
      async handler(ctx: Ctx<Params<typeof userParams.register>>): Promise<AuthResult> {
        const { username: name, password: pw, inviteCode } = ctx.params;
        const nick = ctx.params.nickname ?? name;
        refuseTombstoneName(name);
        if (!isAdminName(name)) {
          const mode = await registration.mode();
          if (mode === 'closed') throw new ImError('IM_ERR_REGISTRATION_CLOSED');
          if (mode === 'invite' && !inviteCode)
            throw new ImError('IM_ERR_REGISTRATION_CLOSED', 'Registration needs an invite to a group of this server');
        }
        if (inviteCode && !(await call(ctx, 'group.checkInvite', { code: inviteCode })))
          throw new ImError('IM_ERR_NOT_FOUND', 'Invite not found, expired or used up');
        if (await isUsernameRetired(users, name)) throw retired();
        if (await users.exists({ username: name })) throw new ImError('IM_ERR_USERNAME_TAKEN');
        let doc: UserDoc;
        try {
          doc = (
            await users.create({
              username: name,
              nickname: nick,
              nicknameLower: nick.toLowerCase(),
              passwordHash: await passwords.hash(pw),
              ...(isAdminName(name) ? { serverAdmin: true } : {}),
            })
          ).toObject();
        } catch (err) {
          // Two registrations raced past the exists() check: the unique index decides.
          if (isDuplicateKeyError(err)) throw new ImError('IM_ERR_USERNAME_TAKEN');
          throw err;
        }
        // The account of that name was deleted between the check and the write: it stays reserved.
        if (await isUsernameRetired(users, name)) {
          await users.deleteOne({ _id: doc._id });
          throw retired();
        }
        if (inviteCode) {
          try {
            await call(
              ctx,
              'group.acceptInvite',
              { code: inviteCode },
              { meta: { user: { id: doc._id.toHexString() } } },
            );
          } catch (err) {
            await users.deleteOne({ _id: doc._id });
            throw err;
          }
        }
        return authResult(deps, ctx, doc);
      },
    },

    login: {
      params: userParams.login,
      // Attempts per address; failures per (address, username) with backoff and per
      // address: never per username alone, so nobody elsewhere can lock the owner out.
      rateLimit: 'login-ip',
      async handler(ctx: Ctx<Params<typeof userParams.login>>): Promise<AuthResult> {
        const pairKey = rateLimitKey('login-failures', ctx);
        const ipKey = rateLimitKey('login-failures-ip', ctx);
        await limits.check('login-failures', pairKey);
        await limits.check('login-failures-ip', ipKey);
        const doc = await users.findOne({ username: ctx.params.username }).lean<UserDoc>();
        // Made by single sign-on or by an import: no password can be right, and saying so beats "wrong password".
        if (doc && doc.status !== 'deleted' && doc.passwordHash === undefined)
          throw doc.imported === true
            ? new ImError(
                'IM_ERR_NO_PASSWORD',
                'This account was imported and has no password yet: ask a server administrator for a claim link',
              )
            : new ImError('IM_ERR_NO_PASSWORD');
        const ok = await passwords.verify(doc?.passwordHash ?? (await passwords.dummyHash()), ctx.params.password);
        if (!doc || !ok || doc.status === 'deleted') {
          await Promise.all([limits.fail('login-failures', pairKey), limits.fail('login-failures-ip', ipKey)]);
          throw new ImError('IM_ERR_INVALID_CREDENTIALS');
        }
        await limits.reset('login-failures', pairKey);
        if (doc.status === 'deactivated') throw new ImError('IM_ERR_ACCOUNT_DEACTIVATED');
        return authResult(deps, ctx, doc);
      },
    },

    me: {
      params: userParams.me,
      async handler(ctx: Ctx): Promise<Me> {
        const id = callerId(ctx);
        const [doc, storage] = await Promise.all([findActive(id), call(ctx, 'file.usage', { userId: id })]);
        return {
          ...toPublicUser(doc),
          storage,
          serverAdmin: doc.serverAdmin === true,
          hasPassword: doc.passwordHash !== undefined,
          ssoLinked: doc.oidc !== undefined,
          shareReadReceipts: doc.hideReadReceipts !== true,
          status: ownStatus(doc.presenceStatus, Date.now()),
          ...toOwnEmail(doc),
        };
      },
    },

    updateMe: {
      params: userParams.updateMe,
      rateLimit: 'profile-update',
      async handler(ctx: Ctx<Params<typeof userParams.updateMe>>): Promise<OwnUser> {
        const id = callerId(ctx);
        const set: Partial<UserDoc> = {};
        let address: ReturnType<typeof addressChange> | undefined;
        if (ctx.params.nickname !== undefined)
          Object.assign(set, { nickname: ctx.params.nickname, nicknameLower: ctx.params.nickname.toLowerCase() });
        if (ctx.params.avatar !== undefined) {
          // One of this server's files: it must be the caller's own small image, and becomes readable by all.
          const fileId = OWN_FILE.exec(ctx.params.avatar)?.[1];
          if (fileId) await call(ctx, 'file.useAsAvatar', { fileId, userId: id });
          set.avatar = ctx.params.avatar;
        }
        if (ctx.params.shareReadReceipts !== undefined) set.hideReadReceipts = !ctx.params.shareReadReceipts;
        if (ctx.params.emailNotifications !== undefined) set.emailNotifications = ctx.params.emailNotifications;
        let status: StoredStatus | undefined;
        const unsetStatus: Record<string, 1> = {};
        if (ctx.params.status !== undefined) {
          const current = await users.findById(id, { presenceStatus: 1 }).lean<UserDoc>();
          const now = Date.now();
          status = applyStatusChange(current?.presenceStatus, ctx.params.status, now);
          set.presenceStatus = status;
          const checkAt = nextChangeAt(status, now);
          if (checkAt) set.statusCheckAt = checkAt;
          else unsetStatus.statusCheckAt = 1;
        }
        if (ctx.params.email !== undefined) {
          const current = await users.findById(id, { emailLower: 1, verifiedEmail: 1 }).lean<UserDoc>();
          address = addressChange(ctx.params.email, current);
          // Each link is an e-mail to an address the caller typed: counted, so nobody is mailed at will.
          if (address.sendsLink) await limits.consume('email-verify', id);
          Object.assign(set, address.set);
        }
        const unset = { ...address?.unset, ...unsetStatus };
        const doc = await users
          .findOneAndUpdate(
            { _id: id, status: 'active' },
            { $set: set, ...(Object.keys(unset).length > 0 ? { $unset: unset } : {}) },
            { new: true },
          )
          .lean<UserDoc>();
        if (!doc) throw unauthorized();
        if (address?.sendsLink) await sendVerification(deps, ctx.broker, doc);
        if (status) await announceStatus(app, ctx.broker, id, doc.presenceStatus, Date.now());
        const user = toPublicUser(doc);
        // The change is saved whatever happens next: without the rooms, only the user's own devices hear of it.
        const rooms = await call(ctx, 'chat.userRooms', { userId: id }).catch(() => ({ groups: [], dmIds: [] }));
        announce(ctx, EVENTS.userUpdated, {
          user,
          groupIds: rooms.groups.map((g) => g.groupId),
          converseIds: rooms.dmIds,
        });
        return toOwnUser(doc);
      },
    },

    /**
     * Deletes the caller's account. Memberships (ownership handed to an admin,
     * or the group deleted when it has none) and push registrations go first,
     * so a failure leaves an account that can try again; then the account is
     * marked deleted (its username stays reserved) and every session ends.
     */
    deleteMe: {
      params: userParams.deleteMe,
      rateLimit: 'password',
      async handler(ctx: Ctx<Params<typeof userParams.deleteMe>>): Promise<void> {
        const id = callerId(ctx);
        if (ctx.params.password !== undefined) {
          const own = await users.findOne({ _id: id, status: 'active' }, { passwordHash: 1 }).lean<UserDoc>();
          if (!own) throw unauthorized();
          if (own.passwordHash === undefined) throw new ImError('IM_ERR_NO_PASSWORD');
          if (!(await deps.passwords.verify(own.passwordHash, ctx.params.password)))
            throw new ImError('IM_ERR_WRONG_PASSWORD');
        }
        await call(ctx, 'group.forgetUser', { userId: id });
        await call(ctx, 'push.forgetUser', { userId: id });
        const doc = await retireAccount(
          users,
          { _id: id, status: { $ne: 'deleted' } },
          {
            $set: { nickname: 'Deleted user', nicknameLower: 'deleted user', passwordHash: '-' },
            // The provider account and the address are freed too: signing in with it again makes a new account.
            $unset: { avatar: 1, oidc: 1, email: 1, emailLower: 1, verifiedEmail: 1, feedTokenHash: 1 },
          },
        );
        if (!doc) throw unauthorized();
        await deps.blocks.deleteMany({ $or: [{ blockerId: id }, { blockedId: id }] });
        await endSessions(deps, ctx, id);
        announce(ctx, EVENTS.userDeactivated, { userId: id });
        // Its hash is gone with the account: gateways drop what they remember of the token.
        announce(ctx, EVENTS.feedTokenReplaced, { userId: id });
      },
    },
  });
};
