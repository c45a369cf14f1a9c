import type { Empty } from '@im/protocol';
import {
  announce,
  EVENTS,
  ImError,
  isDuplicateKeyError,
  type ActionParams,
  type ActionResult,
  type MailRecipient,
  type Params,
  type Ctx,
  conflict,
  defineActions,
} from '@im/sdk';
import type { ServiceBroker } from 'moleculer';
import type { UserDeps } from './deps.ts';
import { passwordFingerprint, resetUrlFor, sendAccountMail, verifyUrlFor } from './email-links.ts';
import type { UserDoc } from './models.ts';
import { userParams } from './params.ts';
import { endSessions } from './session-actions.ts';

/**
 * What storing `email` changes: a new address is kept as typed and
 * lower-cased, not verified, and gets a link (sent again when the same
 * unverified address is given again: "resend"); the verified address given
 * again stays verified; empty removes it.
 */
export function addressChange(
  email: string,
  current: Pick<UserDoc, 'emailLower' | 'verifiedEmail'> | null,
): { set: Partial<UserDoc>; unset: Record<string, 1>; sendsLink: boolean } {
  if (email === '') return { set: {}, unset: { email: 1, emailLower: 1, verifiedEmail: 1 }, sendsLink: false };
  const lower = email.toLowerCase();
  if (current?.verifiedEmail === lower) return { set: { email }, unset: {}, sendsLink: false };
  return { set: { email, emailLower: lower }, unset: { verifiedEmail: 1 }, sendsLink: true };
}

/** E-mails the verification link for the account's current address (queued; e-mail off: nothing). */
export async function sendVerification(deps: UserDeps, broker: ServiceBroker, doc: UserDoc): Promise<void> {
  if (!doc.emailLower || !doc.email) return;
  await sendAccountMail(deps.app, broker, {
    kind: 'verify-email',
    to: doc.email,
    username: doc.username,
    url: await verifyUrlFor(deps, doc),
  });
}

/**
 * Addresses and the links e-mailed to them: verification, the forgotten
 * password, one-click unsubscribe; and, for the mail service, who gets
 * missed-message e-mails.
 */
export const emailActions = (deps: UserDeps) => {
  const { app, users, passwords, links } = deps;
  const limits = app.rateLimits;

  /**
   * The reset e-mail for a name or address, after the answer left: what is
   * found (or not) changes nothing the caller can see or time. Only accounts
   * with a password and a verified address get one, at most
   * `password-reset-account` times an hour each.
   */
  const mailResetLink = async (broker: ServiceBroker, nameOrEmail: string): Promise<void> => {
    const doc = await users
      .findOne({ status: 'active', $or: [{ username: nameOrEmail }, { verifiedEmail: nameOrEmail }] })
      .lean<UserDoc>();
    if (!doc?.verifiedEmail || !doc.email || doc.passwordHash === undefined) return;
    const allowed = await limits.consume('password-reset-account', doc._id.toHexString()).then(
      () => true,
      () => false,
    );
    if (!allowed) return;
    await sendAccountMail(app, broker, {
      kind: 'password-reset',
      to: doc.email,
      username: doc.username,
      url: await resetUrlFor(deps, doc),
    });
  };

  return defineActions('user', {
    /** The link of a verification e-mail: the address becomes the account's verified one (409 if another has it). */
    verifyEmail: {
      params: userParams.verifyEmail,
      rateLimit: 'login-ip',
      async handler(ctx: Ctx<Params<typeof userParams.verifyEmail>>): Promise<void> {
        const { userId, bound } = await links.verify('verify-email', ctx.params.token);
        const doc = await users.findOne({ _id: userId, status: 'active' }).lean<UserDoc>();
        if (!doc || bound === undefined) throw new ImError('IM_ERR_LINK_INVALID');
        // Verified already, or the address was changed since the link was sent.
        if (doc.emailLower !== bound || doc.verifiedEmail !== undefined) throw new ImError('IM_ERR_LINK_USED');
        let matched: number;
        try {
          ({ matchedCount: matched } = await users.updateOne(
            { _id: userId, status: 'active', emailLower: bound, verifiedEmail: { $exists: false } },
            { $set: { verifiedEmail: bound } },
          ));
        } catch (err) {
          if (isDuplicateKeyError(err)) throw conflict('Another account has verified this address');
          throw err;
        }
        if (matched === 0) throw new ImError('IM_ERR_LINK_USED');
      },
    },

    /**
     * Forgotten password: always 202 with the same body, before anything is
     * looked up; the e-mail, if any, is made afterwards.
     */
    passwordReset: {
      params: userParams.passwordReset,
      rateLimit: 'password-reset',
      handler(ctx: Ctx<Params<typeof userParams.passwordReset>>): Empty {
        const broker = ctx.broker;
        void mailResetLink(broker, ctx.params.usernameOrEmail).catch((err: unknown) =>
          app.logger.warn({ err }, 'could not send a password-reset e-mail'),
        );
        return {};
      },
    },

    /**
     * Sets the new password a reset link allows, once: every session ends and
     * the feed token stops working.
     */
    passwordResetConfirm: {
      params: userParams.passwordResetConfirm,
      rateLimit: 'login-ip',
      async handler(ctx: Ctx<Params<typeof userParams.passwordResetConfirm>>): Promise<void> {
        const { userId, bound } = await links.verify('password-reset', ctx.params.token);
        const doc = await users.findOne({ _id: userId, status: 'active' }, { passwordHash: 1 }).lean<UserDoc>();
        if (!doc || bound === undefined) throw new ImError('IM_ERR_LINK_INVALID');
        if (passwordFingerprint(doc.passwordHash) !== bound) throw new ImError('IM_ERR_LINK_USED');
        const passwordHash = await passwords.hash(ctx.params.newPassword);
        // Only over the password the link was made for: two uses at once cannot both win.
        const { matchedCount } = await users.updateOne(
          {
            _id: userId,
            status: 'active',
            ...(doc.passwordHash === undefined
              ? { passwordHash: { $exists: false } }
              : { passwordHash: doc.passwordHash }),
          },
          { $set: { passwordHash }, $unset: { feedTokenHash: 1 } },
        );
        if (matchedCount === 0) throw new ImError('IM_ERR_LINK_USED');
        await endSessions(deps, ctx, userId);
        announce(ctx, EVENTS.feedTokenReplaced, { userId });
      },
    },

    /** One-click unsubscribe (RFC 8058): no sign-in, the signed link is the proof. */
    mailUnsubscribe: {
      params: userParams.mailUnsubscribe,
      rateLimit: 'login-ip',
      async handler(ctx: Ctx<Params<typeof userParams.mailUnsubscribe>>): Promise<void> {
        const { userId } = await links.verify('unsubscribe', ctx.params.token);
        const { matchedCount } = await users.updateOne(
          { _id: userId, status: 'active' },
          { $set: { emailNotifications: 'off' } },
        );
        if (matchedCount === 0) throw new ImError('IM_ERR_LINK_INVALID');
      },
    },

    mailRecipients: {
      visibility: 'public' as const,
      params: userParams.mailRecipients,
      async handler(ctx: Ctx<ActionParams<'user.mailRecipients'>>): Promise<ActionResult<'user.mailRecipients'>> {
        if (ctx.params.ids.length === 0) return {};
        const docs = await users
          .find(
            {
              _id: { $in: ctx.params.ids },
              status: 'active',
              verifiedEmail: { $exists: true },
              emailNotifications: { $ne: 'off' },
            },
            { username: 1, nickname: 1, email: 1, emailNotifications: 1 },
          )
          .lean<UserDoc[]>();
        const out: Record<string, MailRecipient> = {};
        for (const d of docs)
          out[d._id.toHexString()] = {
            email: d.email!,
            username: d.username,
            nickname: d.nickname,
            emailNotifications: d.emailNotifications ?? '10m',
          };
        return out;
      },
    },
  });
};
