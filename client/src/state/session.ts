import type { AuthResult, Me, PublicUser } from '@im/protocol';
import { ApiRequestError } from '../api/errors.ts';
import { http } from '../api/http.ts';
import { connectSocket } from '../api/socket.ts';
import { currentSocket, setCurrentSocket } from './connection.ts';
import { attachRealtime } from './realtime.ts';
import { getState, initialState, setState } from './store.ts';
import { rememberUsers } from './users.ts';

const TOKEN_KEY = 'im.token';

export async function register(
  username: string,
  password: string,
  opts: { nickname?: string; inviteCode?: string } = {},
): Promise<void> {
  const result = await http.post<AuthResult>('/api/auth/register', {
    username,
    password,
    ...(opts.nickname ? { nickname: opts.nickname } : {}),
    ...(opts.inviteCode ? { inviteCode: opts.inviteCode } : {}),
  });
  start(result.token, result.user);
}

export async function login(username: string, password: string): Promise<void> {
  const result = await http.post<AuthResult>('/api/auth/login', { username, password });
  start(result.token, result.user);
}

/** Redeems the one-time code single sign-on brought back (once, within a minute) for a session. */
export async function loginWithSso(code: string): Promise<void> {
  const result = await http.post<AuthResult>('/api/auth/oidc/exchange', { code });
  start(result.token, result.user);
}

/**
 * Resumes the session saved in this browser, if its token still works. A
 * server that cannot be reached is not a reason to log out: that throws, and
 * the caller tries again.
 */
export async function restoreSession(): Promise<boolean> {
  const token = readToken();
  if (!token) return false;
  http.setToken(token);
  try {
    const me = await http.get<Me>('/api/users/me');
    start(token, me);
    return true;
  } catch (err) {
    if (err instanceof ApiRequestError && err.status >= 400 && err.status < 500) {
      if (http.getToken() === token) endSession();
      return false;
    }
    throw err;
  }
}

/**
 * Asks the server whether this browser's session still works: when it ended
 * (a password reset of this account ends them all), the 401 ends it here too.
 */
export async function checkSession(): Promise<void> {
  if (!http.getToken()) return;
  await http.get<Me>('/api/users/me').catch(() => undefined);
}

/** Ends this session on the server too (its token stops working everywhere), then here. */
export async function logout(): Promise<void> {
  await http.post('/api/auth/logout').catch(() => undefined);
  endSession();
}

/** Ends every session of mine, this one too, and my feed token (the server must agree first); then this one here. */
export async function logoutEverywhere(): Promise<void> {
  await http.delete('/api/auth/sessions');
  endSession();
}

function start(token: string, me: PublicUser | Me): void {
  currentSocket()?.disconnect();
  saveToken(token);
  http.setToken(token);
  http.setUnauthorizedHandler(endSession);
  rememberUsers([me]);
  const serverAdmin = 'serverAdmin' in me && me.serverAdmin === true;
  setState({ token, me, serverAdmin, connection: 'connecting' });
  // Login and register answer the public user, which does not say whether I am a server admin.
  if (!('serverAdmin' in me)) void loadServerAdmin(token);
  const socket = connectSocket(token);
  setCurrentSocket(socket);
  attachRealtime(socket, endSession);
}

async function loadServerAdmin(token: string): Promise<void> {
  try {
    const me = await http.get<Me>('/api/users/me');
    if (http.getToken() === token) setState({ serverAdmin: me.serverAdmin === true });
  } catch {
    // Not offered this time; a reload asks again.
  }
}

function endSession(): void {
  const socket = currentSocket();
  setCurrentSocket(null);
  socket?.disconnect();
  http.setToken(null);
  http.setUnauthorizedHandler(null);
  removeToken();
  setState({ ...initialState(), route: getState().route });
}

function readToken(): string | null {
  try {
    return localStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

function saveToken(token: string): void {
  try {
    localStorage.setItem(TOKEN_KEY, token);
  } catch {
    // Private mode: the session lasts as long as the tab.
  }
}

function removeToken(): void {
  try {
    localStorage.removeItem(TOKEN_KEY);
  } catch {
    // Nothing saved.
  }
}
