import { createHash } from 'node:crypto';
import { call, type ActionCaller, type AppContext } from '@im/sdk';
import type { UserDeps } from './deps.ts';
import type { UserDoc } from './models.ts';

/** Where people reach the web app: links in e-mails point there. */
export const publicBase = (app: AppContext): string => app.config.publicUrl ?? `http://localhost:${app.config.port}`;

/**
 * What a reset link is bound to: a digest of the password hash it replaces.
 * Any change of password (by this link or otherwise) makes the link used up.
 */
export const passwordFingerprint = (passwordHash: string | undefined): string =>
  createHash('sha256')
    .update(passwordHash ?? '')
    .digest('base64url')
    .slice(0, 22);

/** A one-use password-reset link (1 h) for the account. */
export async function resetUrlFor(deps: Pick<UserDeps, 'app' | 'links'>, doc: UserDoc): Promise<string> {
  const token = await deps.links.sign('password-reset', {
    userId: doc._id.toHexString(),
    bound: passwordFingerprint(doc.passwordHash),
  });
  return `${publicBase(deps.app)}/reset-password?token=${token}`;
}

/** A verification link (24 h) for the address the account has now. */
export async function verifyUrlFor(deps: Pick<UserDeps, 'app' | 'links'>, doc: UserDoc): Promise<string> {
  const token = await deps.links.sign('verify-email', { userId: doc._id.toHexString(), bound: doc.emailLower! });
  return `${publicBase(deps.app)}/verify-email?token=${token}`;
}

/**
 * Hands an account e-mail to the mail service, which queues it; the request
 * that caused it has its answer whatever happens here (no mail node, e-mail
 * off), so a failure is logged, not thrown.
 */
export async function sendAccountMail(
  app: AppContext,
  caller: ActionCaller,
  mail: { kind: 'verify-email' | 'password-reset'; to: string; username: string; url: string },
): Promise<void> {
  if (!app.config.smtpUrl) return;
  try {
    await call(caller, 'mail.send', mail);
  } catch (err) {
    app.logger.warn({ err, kind: mail.kind }, 'could not hand an account e-mail to the mail service');
  }
}
