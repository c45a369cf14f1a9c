import { describeError } from '../api/errors.ts';
import { loginWithSso } from './session.ts';
import { getState, notify } from './store.ts';
import { api } from '../api/api.ts';
import { t } from '../i18n/i18n.ts';
import type { MessageKey } from '../i18n/locales/en/index.ts';

/** Where the server's single sign-on sends the browser back to, read once from the address. */
export interface SsoLanding {
  /** One-time code to redeem for a session (`/?oidc=`). */
  code?: string;
  /** One-time code that finishes linking my account (`/?oidcLink=`). */
  linkCode?: string;
  /** Why the sign-in or link did not work (`/login?oidcError=`): a sentence to show. */
  error?: string;
}

const REASONS: Record<string, MessageKey> = {
  state: 'auth.sso.error.state',
  expired: 'auth.sso.error.expired',
  denied: 'auth.sso.error.denied',
  provider: 'auth.sso.error.provider',
  unavailable: 'auth.sso.error.unavailable',
  no_account: 'auth.sso.error.no_account',
  deactivated: 'auth.sso.error.deactivated',
  rate_limited: 'auth.sso.error.rate_limited',
};

/** The sentence for an `oidcError` reason (unknown ones get a general one). */
export function ssoErrorText(reason: string): string {
  // Own keys only: a reason such as `constructor` is no entry.
  return t(Object.hasOwn(REASONS, reason) ? REASONS[reason]! : 'auth.sso.error.other');
}

/** The landing's parts of a query string (`?oidc=...`), and the query without them. */
export function parseSsoLanding(search: string): { landing: SsoLanding; rest: string } {
  const params = new URLSearchParams(search);
  const code = params.get('oidc');
  const linkCode = params.get('oidcLink');
  const reason = params.get('oidcError');
  for (const name of ['oidc', 'oidcLink', 'oidcError']) params.delete(name);
  return {
    landing: {
      ...(code ? { code } : {}),
      ...(linkCode ? { linkCode } : {}),
      ...(reason !== null ? { error: ssoErrorText(reason) } : {}),
    },
    rest: params.toString(),
  };
}

let landing: SsoLanding | undefined;

/**
 * What the sign-in put in the address, read once per page load and taken out
 * of it (a code must not stay in the address bar, the history or a
 * bookmark). `/login` is only a landing place: the app shows the login screen
 * whenever nobody is signed in.
 */
export function ssoLanding(): SsoLanding {
  if (landing) return landing;
  const parsed = parseSsoLanding(window.location.search);
  landing = parsed.landing;
  if (Object.keys(landing).length > 0 || window.location.pathname === '/login') {
    const path = window.location.pathname === '/login' ? '/' : window.location.pathname;
    window.history.replaceState(null, '', `${path}${parsed.rest ? `?${parsed.rest}` : ''}${window.location.hash}`);
  }
  return landing;
}

let redemption: Promise<boolean> | undefined;

/**
 * Redeems the landing's sign-in code for a session, once per page load (a
 * code works once): true when a session started. A failure becomes the
 * landing's error, for the login screen.
 */
export function redeemSsoCode(): Promise<boolean> {
  redemption ??= (async () => {
    const arrived = ssoLanding();
    if (!arrived.code) return false;
    try {
      await loginWithSso(arrived.code);
      return true;
    } catch (err) {
      arrived.error ??= t('auth.sso.error.incomplete', { reason: describeError(err) });
      return false;
    }
  })();
  return redemption;
}

let settled = false;

/**
 * Once the session is known: finishes a link the landing brought (signed
 * in), and says what went wrong, on the login screen (`showSignedOut`) or as
 * a notice.
 */
export async function settleSsoLanding(showSignedOut: (text: string) => void): Promise<void> {
  if (settled) return;
  settled = true;
  const arrived = ssoLanding();
  const signedIn = getState().me !== null;
  if (arrived.error) {
    if (signedIn) notify(arrived.error);
    else showSignedOut(arrived.error);
  }
  if (!arrived.linkCode) return;
  if (!signedIn) {
    showSignedOut(t('auth.sso.error.signInFirst'));
    return;
  }
  try {
    await finishSsoLink(arrived.linkCode);
    notify(t('notices.ssoLinked'), 'info');
  } catch (err) {
    notify(t('notices.ssoLink', { reason: describeError(err) }));
  }
}

/** Leaves for the identity provider; the server brings the browser back signed in (or with a reason). */
export function startSso(): void {
  // A browser redirect the gateway serves beside the API, not an endpoint of the table.
  // eslint-disable-next-line no-restricted-syntax
  window.location.assign('/api/auth/oidc/start');
}

/** Leaves for the identity provider to link my account; the server brings the browser back to finish it. */
export async function startSsoLink(): Promise<void> {
  const { url } = await api.call('user.oidcLink');
  window.location.assign(url);
}

/** Finishes linking with the code the return brought (my token proves it is mine). */
export function finishSsoLink(code: string): Promise<void> {
  return api.call('user.oidcLinkFinish', { code });
}
