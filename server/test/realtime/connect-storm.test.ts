import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Message } from '@im/protocol';
import { Errors, type Context } from 'moleculer';
import { io } from 'socket.io-client';
import { groupWithMembers, startApi, type ApiHarness } from '../api/harness.ts';
import { record, sync, until, type ClientSocket } from './client.ts';

/**
 * Room lookups that wait for the test to let them through (`open`), then take
 * `delayMs` each; every `failEvery`-th first lookup of a user fails as a
 * timeout would. The gateway's only room lookup is `chat.userRooms`.
 */
function slowRoomLookups(delayMs: number, failEvery = 0) {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  let calls = 0;
  let failed = 0;
  const seen = new Set<string>();
  const middleware = {
    localAction(next: (ctx: Context) => Promise<unknown>, action: { name?: string }) {
      if (action.name !== 'chat.userRooms') return next;
      return async (ctx: Context<{ userId: string }>) => {
        await gate;
        calls += 1;
        await new Promise((r) => setTimeout(r, delayMs));
        const first = !seen.has(ctx.params.userId);
        seen.add(ctx.params.userId);
        if (failEvery > 0 && first && calls % failEvery === 0) {
          failed += 1;
          throw new Errors.RequestTimeoutError({ action: 'chat.userRooms', nodeID: 'test' });
        }
        return next(ctx);
      };
    },
  };
  return { middleware, open: () => open(), failed: () => failed };
}

/** A socket.io client that does not wait for anything: connects (or is refused) in the background. */
function startConnecting(base: string, token: string): ClientSocket {
  return io(base, {
    path: '/socket.io',
    transports: ['websocket'],
    auth: { token },
    reconnection: false,
    forceNew: true,
  });
}

const connected = (socket: ClientSocket) =>
  new Promise<void>((resolve, reject) => {
    if (socket.connected) return resolve();
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });

describe('a connect storm with slow room lookups', () => {
  const MEMBERS = 200;
  const slow = slowRoomLookups(15, 7);
  let api: ApiHarness;
  const sockets: ClientSocket[] = [];
  before(async () => {
    api = await startApi(
      import.meta.url,
      { SOCKET_ROOM_LOADS: '4', PASSWORD_HASH_MEMORY_KIB: '1024' },
      { middlewares: [slow.middleware] },
    );
  });
  after(async () => {
    for (const s of sockets) s.disconnect();
    await api.close();
  });

  it('disconnects no socket, and every socket gets every message sent while its rooms load, once and in order', async (t) => {
    const { owner, members, converseId } = await groupWithMembers(api, MEMBERS, 'Storm');
    const send = async (content: string) =>
      (await api.broker.call('chat.send', { converseId, content }, { meta: { user: { id: owner.id } } })) as Message;

    const disconnects: string[] = [];
    const received: Array<Array<Message>> = [];
    for (const member of members) {
      const socket = startConnecting(api.base, member.token);
      socket.on('disconnect', (reason) => disconnects.push(reason));
      received.push(record(socket, 'message:new'));
      sockets.push(socket);
    }
    await Promise.all(sockets.map(connected));

    // Everyone is connected and no room is loaded yet: these go out while all of them wait.
    const sent: Message[] = [];
    for (let i = 0; i < 5; i += 1) sent.push(await send(`while waiting ${i}`));
    assert.ok(
      received.every((r) => r.length === 0),
      'nobody is in the converse room yet',
    );
    slow.open();
    // And these while the queue lets them in, four at a time.
    for (let i = 0; i < 20; i += 1) {
      sent.push(await send(`while loading ${i}`));
      await new Promise((r) => setTimeout(r, 20));
    }
    await until('every socket has every message', () => received.every((r) => r.length >= sent.length), 60_000);
    await new Promise((r) => setTimeout(r, 200));

    const seqs = sent.map((m) => m.seq);
    received.forEach((got, i) =>
      assert.deepEqual(
        got.map((m) => m.seq),
        seqs,
        `member ${i}`,
      ),
    );
    assert.deepEqual(disconnects, []);
    assert.ok(sockets.every((s) => s.connected));
    assert.ok(slow.failed() > 0, 'some lookups failed once and were tried again');
    t.diagnostic(`${MEMBERS} sockets, ${sent.length} messages, ${slow.failed()} lookups failed once`);
  });
});

describe('a gateway past its connect backlog', () => {
  const slow = slowRoomLookups(0);
  let api: ApiHarness;
  const sockets: ClientSocket[] = [];
  before(async () => {
    api = await startApi(
      import.meta.url,
      { SOCKET_ROOM_LOADS: '2', SOCKET_CONNECT_BACKLOG: '5', PASSWORD_HASH_MEMORY_KIB: '1024' },
      { middlewares: [slow.middleware] },
    );
  });
  after(async () => {
    for (const s of sockets) s.disconnect();
    await api.close();
  });

  it('refuses new handshakes with IM_ERR_SERVICE_UNAVAILABLE and a jittered retryAfterMs, and admits them later', async () => {
    const users = await Promise.all(Array.from({ length: 12 }, () => api.user('bl')));
    const outcomes: Array<{ user: (typeof users)[number]; error?: { code?: string; retryAfterMs?: number } }> = [];
    // One after the other, so each handshake sees the ones before it waiting.
    for (const user of users) {
      const socket = startConnecting(api.base, user.token);
      sockets.push(socket);
      try {
        await connected(socket);
        outcomes.push({ user });
      } catch (err) {
        outcomes.push({ user, error: (err as { data?: { code?: string; retryAfterMs?: number } }).data ?? {} });
      }
    }
    const refused = outcomes.filter((o) => o.error);
    // Two loading and five waiting: the eighth and later are turned away.
    assert.equal(outcomes.length - refused.length, 7);
    for (const { error } of refused) {
      assert.equal(error!.code, 'IM_ERR_SERVICE_UNAVAILABLE');
      assert.ok(error!.retryAfterMs! >= 1000 && error!.retryAfterMs! <= 5000, String(error!.retryAfterMs));
    }
    assert.ok(new Set(refused.map((o) => o.error!.retryAfterMs)).size > 1, 'each is told a different delay');

    slow.open();
    // Once the waiting ones are in their rooms (their sync is answered), the backlog is empty again.
    await Promise.all(sockets.filter((s) => s.connected).map((s) => sync(s, {})));
    const again = startConnecting(api.base, refused[0]!.user.token);
    sockets.push(again);
    await connected(again);
    assert.ok(again.connected);
  });
});

describe('a catch-up sync that times out', () => {
  let api: ApiHarness;
  const sockets: ClientSocket[] = [];
  // Every user's first sync fails as a timeout would (a cold store after a restart).
  const failedOnce = new Set<string>();
  const middleware = {
    localAction(next: (ctx: Context) => Promise<unknown>, action: { name?: string }) {
      if (action.name !== 'chat.sync') return next;
      return async (ctx: Context) => {
        const userId = (ctx.meta as { user?: { id: string } }).user?.id ?? '';
        if (!failedOnce.has(userId)) {
          failedOnce.add(userId);
          throw new Errors.RequestTimeoutError({ action: 'chat.sync', nodeID: 'test' });
        }
        return next(ctx);
      };
    },
  };
  before(async () => {
    api = await startApi(import.meta.url, { PASSWORD_HASH_MEMORY_KIB: '1024' }, { middlewares: [middleware] });
  });
  after(async () => {
    for (const s of sockets) s.disconnect();
    await api.close();
  });

  it('is tried again by the gateway and answered, with what the socket missed', async () => {
    const { owner, members, converseId } = await groupWithMembers(api, 3, 'Cold');
    const sent = (await api.broker.call(
      'chat.send',
      { converseId, content: 'while away' },
      { meta: { user: { id: owner.id } } },
    )) as Message;
    for (const member of members) {
      const socket = startConnecting(api.base, member.token);
      sockets.push(socket);
      await connected(socket);
      const result = await sync(socket, { [converseId]: 0 });
      assert.deepEqual(
        result.converses[converseId]?.messages.map((m) => m.id),
        [sent.id],
      );
      assert.ok(failedOnce.has(member.id), 'its first try failed');
    }
  });
});
