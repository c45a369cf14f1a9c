import type { Me, PublicUser } from '@im/protocol';
import { ApiRequestError } from '../api/errors.ts';
import { http } from '../api/http.ts';
import { connectSocket } from '../api/socket.ts';
import { disablePush, forgetPushOnDevice } from '../push/notifications.ts';
import { forgetAccountState } from './account-state.ts';
import { leaveSignInNotice } from './sign-in-notice.ts';
import { setCurrentSocket } from './connection.ts';
import { attachRealtime } from './realtime.ts';
import { getState, setState } from './store.ts';
import { rememberUsers } from './users.ts';
import { api } from '../api/api.ts';
import { keepOfflineCopy } from '../offline/keep.ts';
import { keptSnapshot, keptUnsent, showKeptCopy } from '../offline/restore.ts';
import { restoreUnsent } from './conversations.ts';

const TOKEN_KEY = 'im.token';
/** Whose session this browser keeps: a sign-in as someone else forgets theirs first. */
const ACCOUNT_KEY = 'im.account';

export async function register(
  username: string,
  password: string,
  opts: { nickname?: string; inviteCode?: string } = {},
): Promise<void> {
  const result = await api.call('user.register', {
    username,
    password,
    ...(opts.nickname ? { nickname: opts.nickname } : {}),
    ...(opts.inviteCode ? { inviteCode: opts.inviteCode } : {}),
  });
  start(result.token, result.user);
}

export async function login(username: string, password: string): Promise<void> {
  const result = await api.call('user.login', { username, password });
  start(result.token, result.user);
}

/** Claims an imported account with a claim link's token: its password (and perhaps a new name) set, signed in as it. */
export async function claimAccount(token: string, password: string, username?: string): Promise<void> {
  const result = await api.call('user.claim', { token, password, ...(username ? { username } : {}) });
  start(result.token, result.user);
}

/** Redeems the one-time code single sign-on brought back (once, within a minute) for a session. */
export async function loginWithSso(code: string): Promise<void> {
  const result = await api.call('user.oidcExchange', { code });
  start(result.token, result.user);
}

/**
 * Resumes the session saved in this browser, if its token still works. A
 * server that cannot be reached is not a reason to log out: the app starts
 * from the copy this device kept of the account (offline/), or, without
 * one, this throws and the caller tries again.
 */
export async function restoreSession(): Promise<boolean> {
  const token = readItem(TOKEN_KEY);
  if (!token) return false;
  http.setToken(token);
  try {
    const me = await api.call('user.me');
    start(token, me);
    return true;
  } catch (err) {
    if (err instanceof ApiRequestError && err.status >= 400 && err.status < 500) {
      if (http.getToken() === token) endSession();
      return false;
    }
    const kept = await keptSnapshot(readItem(ACCOUNT_KEY));
    if (!kept) throw err;
    // The socket keeps trying; once it connects, sync brings what happened meanwhile
    // (a session that ended meanwhile is refused there, which signs out).
    start(token, kept.me, { offline: true });
    await showKeptCopy(kept);
    return true;
  }
}

/**
 * Asks the server whether this browser's session still works: when it ended
 * (a password reset of this account ends them all), the 401 ends it here too.
 */
export async function checkSession(): Promise<void> {
  if (!http.getToken()) return;
  await api.call('user.me').catch(() => undefined);
}

/**
 * Ends this session on the server too (its token stops working everywhere),
 * then here. This browser's push subscription goes first, while the token
 * still works: the next account signing in here must not get mine.
 */
export async function logout(): Promise<void> {
  await disablePush().catch(() => undefined);
  await api.call('user.logout').catch(() => undefined);
  endSession();
}

/** Ends every session of mine, this one too, and my feed token (the server must agree first); then this one here. */
export async function logoutEverywhere(): Promise<void> {
  await api.call('user.logoutEverywhere');
  endSession();
}

/**
 * Deletes my account on the server (`password` checked there when given),
 * then ends the session here; the sign-in screen says the account is gone.
 */
export async function deleteMyAccount(password?: string): Promise<void> {
  await disablePush().catch(() => undefined);
  await api.call('user.deleteMe', password === undefined ? {} : { password });
  leaveSignInNotice('accountDeleted');
  endSession();
}

function start(token: string, me: PublicUser | Me, opts: { offline?: boolean } = {}): void {
  // Signing in over a session of this tab, or as another account than the one this browser
  // kept (a sign-in link over a saved session): nothing of the previous one stays (its
  // socket, calls, state; its push subscription when it is another account).
  const previous = getState().me?.id ?? readItem(ACCOUNT_KEY);
  const another = previous !== null && previous !== me.id;
  if (getState().me || another) forgetSession();
  if (another) void forgetPushOnDevice();
  saveItem(TOKEN_KEY, token);
  saveItem(ACCOUNT_KEY, me.id);
  http.setToken(token);
  http.setUnauthorizedHandler(endSession);
  rememberUsers([me]);
  const serverAdmin = 'serverAdmin' in me && me.serverAdmin === true;
  setState({ token, me, serverAdmin, connection: 'connecting', myStatus: 'status' in me ? me.status : null });
  // Login and register answer the public user, which does not say whether I am a server admin.
  if (!('serverAdmin' in me) && !opts.offline) void loadServerAdmin(token);
  keepOfflineCopy(me.id);
  void keptUnsent(me.id).then((unsent) => http.getToken() === token && restoreUnsent(unsent));
  const socket = connectSocket(token);
  setCurrentSocket(socket);
  attachRealtime(socket, endSession);
}

async function loadServerAdmin(token: string): Promise<void> {
  try {
    const me = await api.call('user.me');
    if (http.getToken() === token) setState({ serverAdmin: me.serverAdmin === true, myStatus: me.status });
  } catch {
    // Not offered this time; a reload asks again.
  }
}

/** The one way a session ends here: signing out, or the server ending it (a 401, a refused socket). */
function endSession(): void {
  forgetSession();
  removeItem(TOKEN_KEY);
  removeItem(ACCOUNT_KEY);
  void forgetPushOnDevice();
}

/**
 * Forgets the session in this tab: its calls still on their way are cancelled
 * and their answers dropped, then every module forgets the account's state
 * (its socket closes with it, see connection.ts).
 */
function forgetSession(): void {
  http.setToken(null);
  http.setUnauthorizedHandler(null);
  forgetAccountState();
}

function readItem(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function saveItem(key: string, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    // Private mode: the session lasts as long as the tab.
  }
}

function removeItem(key: string): void {
  try {
    localStorage.removeItem(key);
  } catch {
    // Nothing saved.
  }
}
