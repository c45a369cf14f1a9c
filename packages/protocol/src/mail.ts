import type { PublicUser } from './index.ts';
import type { UserStatus } from './attention.ts';

/** When missed DMs and mentions are e-mailed: never, or this long after the first one unread. */
export type EmailNotifications = 'off' | '10m' | '1h' | 'daily';

/** The e-mail fields of the caller's own account (never part of anyone else's view of it). */
export interface OwnEmail {
  /** As typed (or as the sign-in provider gave it); absent until one is set. */
  email?: string;
  /** The owner opened the verification link sent to `email` (or the sign-in provider vouched for it). */
  emailVerified: boolean;
  /** Missed-message e-mails; sent only to a verified address. */
  emailNotifications: EmailNotifications;
}

/** `PATCH /api/users/me`: the caller's profile as changed, with its e-mail fields and its status. */
export type OwnUser = PublicUser & OwnEmail & { status: UserStatus };

/** `POST /api/admin/users/:userId/reset-link`: a password-reset link (1 h, one use) to hand to the account's owner. */
export interface ResetLink {
  url: string;
}
