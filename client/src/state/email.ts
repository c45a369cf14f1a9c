import type { AuthOptions, EmailNotifications, OwnUser, ResetLink } from '@im/protocol';
import { api } from '../api/api.ts';
import type { MessageKey } from '../i18n/locales/en/index.ts';

/** The choices of the e-mail notification setting, in the order shown. */
export const EMAIL_NOTIFICATION_CHOICES: ReadonlyArray<{ value: EmailNotifications; label: MessageKey }> = [
  { value: 'off', label: 'account.email.notify.off' },
  { value: '10m', label: 'account.email.notify.10m' },
  { value: '1h', label: 'account.email.notify.1h' },
  { value: 'daily', label: 'account.email.notify.daily' },
];

/** Whether the server sends e-mail (SMTP is set up), as its auth options say; absent means no. */
export const emailEnabled = (options: AuthOptions | null): boolean => options?.email === true;

/** Whether "Forgot password?" can e-mail a reset link, as the auth options say. */
export const passwordResetEnabled = (options: AuthOptions | null): boolean =>
  (options?.passwordReset ?? options?.email) === true;

/** Sets my address (or sends the same one again): it starts unverified and a verification link is mailed. */
export const setEmail = (email: string): Promise<OwnUser> => api.call('user.updateMe', { email });

export const setEmailNotifications = (emailNotifications: EmailNotifications): Promise<OwnUser> =>
  api.call('user.updateMe', { emailNotifications });

/** Redeems the link's token from a verification e-mail. */
export const verifyEmail = (token: string): Promise<void> => api.call('user.verifyEmail', { token });

/** A missed-message e-mail's unsubscribe link: those e-mails are turned off, no sign-in needed. */
export const unsubscribeEmails = (token: string): Promise<void> => api.call('user.mailUnsubscribe', { token });

/** Asks for a reset link by e-mail; the server answers the same whether or not an account matches. */
export const requestPasswordReset = async (usernameOrEmail: string): Promise<void> => {
  await api.call('user.passwordReset', { usernameOrEmail });
};

/** Sets a new password with a reset link's token: every session of the account ends. */
export const confirmPasswordReset = (token: string, newPassword: string): Promise<void> =>
  api.call('user.passwordResetConfirm', { token, newPassword });

/** A server admin's reset link for any account (works without e-mail). */
export const makeResetLink = (userId: string): Promise<ResetLink> => api.call('user.adminResetLink', { userId });
