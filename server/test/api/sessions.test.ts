import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { after, before, describe, it } from 'node:test';
import type { AuthResult, Session } from '@im/protocol';
import { connectClient } from '../realtime/client.ts';
import { startApi, type ApiHarness } from './harness.ts';

type Err = { error: { code: string } };
const PASSWORD = 'correct horse battery';

/** A JSON request sent from a chosen loopback source address (the server sees another client). */
function requestFrom(
  base: string,
  localAddress: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: unknown; retryAfter: number }> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = httpRequest(
      `${base}${path}`,
      {
        method,
        localAddress,
        headers: { ...headers, ...(payload ? { 'content-type': 'application/json' } : {}) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: text ? (JSON.parse(text) as unknown) : undefined,
            retryAfter: Number(res.headers['retry-after'] ?? 0),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

describe('sessions: logout, the list, revoking one, changing the password', () => {
  let api: ApiHarness;
  before(async () => {
    api = await startApi(import.meta.url);
  });
  after(() => api.close());

  const login = async (username: string, password = PASSWORD, userAgent = 'test-agent/1') =>
    api.request<AuthResult & Err>('POST', '/api/auth/login', {
      body: { username, password },
      headers: { 'user-agent': userAgent },
    });
  const me = (token: string) => api.request('GET', '/api/users/me', { token });

  it('lists my live sessions with address, agent and which one asks; revoking one ends its token and socket', async () => {
    const { username, token: first } = await api.user('sess');
    const second = (await login(username, PASSWORD, 'phone-browser/2')).body.token;
    const list = await api.request<Session[]>('GET', '/api/auth/sessions', { token: second });
    assert.equal(list.status, 200);
    assert.equal(list.body.length, 2);
    const current = list.body.find((s) => s.current)!;
    const other = list.body.find((s) => !s.current)!;
    assert.equal(current.userAgent, 'phone-browser/2');
    assert.equal(current.ip, '127.0.0.1');
    assert.ok(Date.parse(current.lastSeenAt) >= Date.parse(current.createdAt));

    const socket = await connectClient(api.base, first);
    const closed = new Promise<string>((resolve) => socket.once('disconnect', (reason) => resolve(reason)));
    const revoke = await api.request('DELETE', `/api/auth/sessions/${other.id}`, { token: second });
    assert.equal(revoke.status, 204);
    assert.equal(await closed, 'io server disconnect');
    assert.equal((await me(first)).status, 401);
    assert.equal((await me(second)).status, 200);
    // The revoked session is gone from the list; revoking it again finds nothing.
    const after = await api.request<Session[]>('GET', '/api/auth/sessions', { token: second });
    assert.deepEqual(
      after.body.map((s) => s.id),
      [current.id],
    );
    assert.equal((await api.request<Err>('DELETE', `/api/auth/sessions/${other.id}`, { token: second })).status, 404);
  });

  it("cannot see or revoke another user's session, and refuses malformed ids", async () => {
    const alice = await api.user('sess');
    const bob = await api.user('sess');
    const bobs = (await api.request<Session[]>('GET', '/api/auth/sessions', { token: bob.token })).body;
    const res = await api.request<Err>('DELETE', `/api/auth/sessions/${bobs[0]!.id}`, { token: alice.token });
    assert.equal(res.status, 404);
    assert.equal(res.body.error.code, 'IM_ERR_NOT_FOUND');
    assert.equal((await me(bob.token)).status, 200);
    const bad = await api.request<Err>('DELETE', '/api/auth/sessions/not-an-id', { token: alice.token });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.code, 'IM_ERR_VALIDATION');
    assert.equal((await api.request('GET', '/api/auth/sessions')).status, 401);
  });

  it('logout ends this token at once, sockets included, and leaves my other sessions alone', async () => {
    const { username, token } = await api.user('sess');
    const other = (await login(username)).body.token;
    const socket = await connectClient(api.base, token);
    const closed = new Promise<void>((resolve) => socket.once('disconnect', () => resolve()));
    assert.equal((await api.request('POST', '/api/auth/logout', { token })).status, 204);
    await closed;
    const refused = await me(token);
    assert.equal(refused.status, 401);
    assert.equal((refused.body as Err).error.code, 'IM_ERR_UNAUTHORIZED');
    assert.equal((await me(other)).status, 200);
    // A socket cannot come back with the ended token either.
    await assert.rejects(connectClient(api.base, token));
  });

  it('changes the password: wrong current refused with nothing changed; right one ends every other session', async () => {
    const { username, token } = await api.user('sess');
    const other = (await login(username)).body.token;
    const wrong = await api.request<Err>('POST', '/api/auth/password', {
      token,
      body: { currentPassword: 'not my password', newPassword: 'a brand new secret' },
    });
    assert.equal(wrong.status, 403);
    assert.equal(wrong.body.error.code, 'IM_ERR_WRONG_PASSWORD');
    assert.equal((await me(other)).status, 200);
    assert.equal((await login(username)).status, 200);

    for (const body of [
      { currentPassword: PASSWORD, newPassword: 'short' },
      { currentPassword: PASSWORD },
      { currentPassword: PASSWORD, newPassword: 'a brand new secret', extra: 1 },
      { currentPassword: PASSWORD, newPassword: { $ne: '' } },
    ]) {
      const res = await api.request<Err>('POST', '/api/auth/password', { token, body });
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(res.body.error.code, 'IM_ERR_VALIDATION');
    }
    assert.equal((await login(username)).status, 200, 'refused changes leave the password as it was');

    const ok = await api.request('POST', '/api/auth/password', {
      token,
      body: { currentPassword: PASSWORD, newPassword: 'a brand new secret' },
    });
    assert.equal(ok.status, 204);
    assert.equal((await me(token)).status, 200, 'the session that changed it keeps working');
    assert.equal((await me(other)).status, 401);
    assert.equal((await login(username)).status, 401);
    assert.equal((await login(username, 'a brand new secret')).status, 200);
    const sessions = await api.request<Session[]>('GET', '/api/auth/sessions', { token });
    assert.equal(sessions.body.filter((s) => s.current).length, 1);
  });

  it('refuses tokens without a session (made before sessions existed) as it does forged ones', async () => {
    const { SignJWT } = await import('jose');
    const { id } = await api.user('sess');
    const legacy = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(id)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('s'.repeat(40)));
    assert.equal((await me(legacy)).status, 401);
  });
});

describe('login throttling per (address, username) and per address', () => {
  let api: ApiHarness;
  before(async () => {
    api = await startApi(import.meta.url, { RATE_LIMIT: 'on', RATE_LIMITS: 'login-failures-ip=8/60' });
  });
  after(() => api.close());

  it("slows an attacker's address on one account while the owner logs in from another", async () => {
    const { username } = await api.user('victim');
    const attempt = (from: string, password: string, name = username) =>
      requestFrom(api.base, from, 'POST', '/api/auth/login', { username: name, password });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await attempt('127.0.0.2', `guess-${i}`)).status);
    assert.deepEqual(statuses, [401, 401, 401, 401, 401, 429]);
    const held = await attempt('127.0.0.2', PASSWORD);
    assert.equal(held.status, 429, 'even the right password waits on the throttled address');
    assert.ok(held.retryAfter >= 1 && held.retryAfter <= 300, `Retry-After ${held.retryAfter}`);
    assert.equal((held.body as Err).error.code, 'IM_ERR_RATE_LIMITED');
    // The owner, elsewhere, is never locked out; the name's case makes no new count.
    assert.equal((await attempt('127.0.0.3', PASSWORD)).status, 200);
    assert.equal((await attempt('127.0.0.2', 'guess', username.toUpperCase())).status, 429);
  });

  it('counts wrong passwords from one address across usernames', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++)
      statuses.push(
        (await requestFrom(api.base, '127.0.0.4', 'POST', '/api/auth/login', { username: `nobody${i}`, password: 'x' }))
          .status,
      );
    for (let i = 0; i < 4; i++)
      statuses.push(
        (await requestFrom(api.base, '127.0.0.4', 'POST', '/api/auth/login', { username: `noone${i}`, password: 'x' }))
          .status,
      );
    assert.deepEqual(statuses, Array(8).fill(401));
    assert.equal(
      (await requestFrom(api.base, '127.0.0.4', 'POST', '/api/auth/login', { username: 'someone', password: 'x' }))
        .status,
      429,
    );
    assert.equal(
      (await requestFrom(api.base, '127.0.0.5', 'POST', '/api/auth/login', { username: 'someone', password: 'x' }))
        .status,
      401,
    );
  });
});

describe('client addresses (TRUST_PROXY)', () => {
  const sessionIp = async (trust: string, forwarded: string): Promise<string> => {
    const api = await startApi(import.meta.url, { TRUST_PROXY: trust });
    try {
      const { username } = await api.user('proxy');
      const login = await requestFrom(
        api.base,
        '127.0.0.1',
        'POST',
        '/api/auth/login',
        { username, password: PASSWORD },
        { 'x-forwarded-for': forwarded },
      );
      const { token } = login.body as AuthResult;
      const sessions = await api.request<Session[]>('GET', '/api/auth/sessions', { token });
      return sessions.body.find((s) => s.current)!.ip;
    } finally {
      await api.close();
    }
  };

  it('ignores a forged X-Forwarded-For when no proxy is trusted', async () => {
    assert.equal(await sessionIp('false', '203.0.113.9'), '127.0.0.1');
  });

  it('takes the right-most entry that is not a trusted hop', async () => {
    // The client wrote "6.6.6.6" itself; the proxies appended the rest.
    assert.equal(await sessionIp('1', '6.6.6.6, 198.51.100.7, 203.0.113.9'), '203.0.113.9');
    assert.equal(await sessionIp('2', '6.6.6.6, 198.51.100.7, 203.0.113.9'), '198.51.100.7');
    assert.equal(await sessionIp('127.0.0.0/8, 203.0.113.0/24', '6.6.6.6, 198.51.100.7, 203.0.113.9'), '198.51.100.7');
  });
});
