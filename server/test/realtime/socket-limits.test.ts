import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Group } from '@im/protocol';
import { TokenService } from '@im/sdk';
import { decodeJwt } from 'jose';
import type { Context } from 'moleculer';
import { startApi, type ApiHarness } from '../api/harness.ts';
import { connectClient, sendOverSocket, type ClientSocket } from './client.ts';

type Closing = { code: string; message: string };

/** Resolves with the socket's `socket:closing` and its disconnect reason, in that order; rejects after `ms`. */
function closed(socket: ClientSocket, ms = 20_000): Promise<{ closing: Closing; reason: string }> {
  return new Promise((resolve, reject) => {
    let closing: Closing | undefined;
    const timer = setTimeout(() => reject(new Error('the socket was not closed')), ms);
    socket.once('socket:closing', (event) => (closing = event));
    socket.once('disconnect', (reason) => {
      clearTimeout(timer);
      if (!closing) reject(new Error(`closed without socket:closing (${reason})`));
      else resolve({ closing, reason });
    });
  });
}

/** Leaves the gateway's copy of `user.sessions.revoked` out: a revocation event this gateway missed. */
const deafGateway = {
  localEvent(next: (ctx: Context) => void | Promise<void>, event: { name?: string; service?: { name?: string } }) {
    if (event.name === 'user.sessions.revoked' && event.service?.name === 'gateway') return async () => {};
    return next;
  },
};

describe('sockets per user, and sockets that outlive their session', () => {
  let api: ApiHarness;
  const sockets: ClientSocket[] = [];
  before(async () => {
    api = await startApi(
      import.meta.url,
      { SOCKETS_PER_USER: '3', SOCKET_SESSION_CHECK_SEC: '1' },
      {
        middlewares: [deafGateway],
      },
    );
  });
  after(async () => {
    for (const s of sockets) s.disconnect();
    await api.close();
  });
  const connect = async (token: string) => {
    const socket = await connectClient(api.base, token);
    sockets.push(socket);
    return socket;
  };

  it('past SOCKETS_PER_USER the oldest socket closes, told why; the others and other users go on', async () => {
    const user = await api.user('many');
    const other = await api.user('other');
    const group = (await api.request<Group>('POST', '/api/groups', { token: user.token, body: { name: 'Tabs' } })).body;
    const converseId = group.panels[0]!.converseId;
    const [oldest, second, third] = [await connect(user.token), await connect(user.token), await connect(user.token)];
    const othersSocket = await connect(other.token);
    const oldestClosed = closed(oldest);
    const newest = await connect(user.token);

    const { closing, reason } = await oldestClosed;
    assert.equal(closing.code, 'IM_ERR_LIMIT');
    assert.match(closing.message, /more than 3/);
    assert.equal(reason, 'io server disconnect');
    for (const s of [second, third, newest, othersSocket]) assert.equal(s.connected, true);
    await sendOverSocket(newest, converseId, 'still here');
    await sendOverSocket(second, converseId, 'me too');
  });

  it('a socket whose session was revoked closes at the next check even if its gateway missed the event', async () => {
    const user = await api.user('rev');
    const bystander = await api.user('by');
    const login = await api.request<{ token: string }>('POST', '/api/auth/login', {
      body: { username: user.username, password: 'correct horse battery' },
    });
    const revokedSocket = await connect(login.body.token);
    const otherSession = await connect(user.token);
    const bystanderSocket = await connect(bystander.token);
    const revokedClosed = closed(revokedSocket);
    assert.equal((await api.request('POST', '/api/auth/logout', { token: login.body.token, body: {} })).status, 204);

    const { closing, reason } = await revokedClosed;
    assert.equal(closing.code, 'IM_ERR_UNAUTHORIZED');
    assert.equal(reason, 'io server disconnect');
    // The same round checked the others' sessions: still live, still open.
    assert.equal(otherSession.connected, true);
    assert.equal(bystanderSocket.connected, true);
    assert.equal((await api.request('GET', '/api/users/me', { token: login.body.token })).status, 401);
  });
});

describe('a socket outlives no token', () => {
  let api: ApiHarness;
  const sockets: ClientSocket[] = [];
  before(async () => {
    api = await startApi(import.meta.url);
  });
  after(async () => {
    for (const s of sockets) s.disconnect();
    await api.close();
  });

  it('closes when its token expires, told why; signing in again connects again', async () => {
    const user = await api.user('exp');
    // A token of the user's live session that expires in 2 s (TOKEN_TTL is at least a minute),
    // signed with the test node's secret as the user service signs them.
    const { sid } = decodeJwt(user.token) as { sid: string };
    const shortLived = await new TokenService('s'.repeat(40), 60).sign(user.id, sid, { ttlSeconds: 2 });
    const socket = await connectClient(api.base, shortLived);
    sockets.push(socket);
    const { closing, reason } = await closed(socket);
    assert.equal(closing.code, 'IM_ERR_UNAUTHORIZED');
    assert.equal(reason, 'io server disconnect');

    const login = await api.request<{ token: string }>('POST', '/api/auth/login', {
      body: { username: user.username, password: 'correct horse battery' },
    });
    const again = await connectClient(api.base, login.body.token);
    sockets.push(again);
    assert.equal(again.connected, true);
  });
});
