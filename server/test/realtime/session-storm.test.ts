import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Message } from '@im/protocol';
import { Errors, type Context } from 'moleculer';
import type { Connection } from 'mongoose';
import { io } from 'socket.io-client';
import type { RunningNode } from '../../src/node.ts';
import { connectMongo } from '@im/sdk';
import { eventually, groupWithMembers, startApi, startSingleNode, type ApiHarness } from '../api/harness.ts';
import { record, sync, until, type ClientSocket } from './client.ts';

type Claims = Array<{ sessionId: string; userId: string }>;

/**
 * `user.sessionsLive` as the test lets it through: every call waits for
 * `open()`; the first one then fails as a timeout would (when asked), the
 * rest answer. Records the claims of each call.
 */
function heldSessionChecks(failFirst: boolean) {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const calls: Claims[] = [];
  let failed = 0;
  const middleware = {
    localAction(next: (ctx: Context) => Promise<unknown>, action: { name?: string }) {
      if (action.name !== 'user.sessionsLive') return next;
      return async (ctx: Context<{ claims: Claims }>) => {
        calls.push(ctx.params.claims);
        await gate;
        if (failFirst && failed === 0) {
          failed += 1;
          throw new Errors.RequestTimeoutError({ action: 'user.sessionsLive', nodeID: 'test' });
        }
        return next(ctx);
      };
    },
  };
  return { middleware, calls, open: () => open(), failed: () => failed };
}

const startConnecting = (base: string, token: string): ClientSocket =>
  io(base, { path: '/socket.io', transports: ['websocket'], auth: { token }, reconnection: false, forceNew: true });

const connected = (socket: ClientSocket) =>
  new Promise<void>((resolve, reject) => {
    if (socket.connected) return resolve();
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });

/** A gauge of the gateway's /metrics. */
async function gauge(base: string, name: string): Promise<number> {
  const text = await (await fetch(`${base}/metrics`)).text();
  const match = new RegExp(`^${name} (\\d+)`, 'm').exec(text);
  return match ? Number(match[1]) : NaN;
}

/** The commands mongoose sends on `db` while it is watched. */
function watchCommands(db: Connection): { commands: string[]; stop: () => void } {
  const commands: string[] = [];
  db.set('debug', (collection: string, method: string) => commands.push(`${collection}.${method}`));
  return { commands, stop: () => db.set('debug', false) };
}

interface StormCase {
  /** The restarted node's extra settings. */
  env: (api: ApiHarness) => Record<string, string>;
  /** What the storm's checks may read of the sessions collection, given the calls they took. */
  expectReads: (sessionReads: string[], calls: number) => void;
}

/**
 * Members of a group (logged in on a first node), the node restarted with
 * every cache of its own cold, then all of them connecting at once while the
 * test holds the session checks (the first batch then failing as a timeout).
 */
function stormAfterRestart(name: string, { env, expectReads }: StormCase) {
  describe(name, () => {
    const MEMBERS = 200;
    const held = heldSessionChecks(true);
    let api: ApiHarness;
    let restarted: RunningNode | undefined;
    let base = '';
    const sockets: ClientSocket[] = [];
    before(async () => {
      api = await startApi(import.meta.url, { PASSWORD_HASH_MEMORY_KIB: '1024' });
    });
    after(async () => {
      for (const s of sockets) s.disconnect();
      await restarted?.stop();
      await api.env.close();
    });

    it('checks them in a few batched calls, retries a failed batch, refuses no handshake and writes no session on the way', async (t) => {
      const { owner, members, converseId } = await groupWithMembers(api, MEMBERS, 'Storm');
      await api.node.stop();
      ({ node: restarted, base } = await startSingleNode(
        api.env,
        { PASSWORD_HASH_MEMORY_KIB: '1024', ...env(api) },
        { middlewares: [held.middleware] },
      ));
      const watched = watchCommands(restarted.app.mongo!);
      const stormStarted = new Date();

      const received: Message[][] = [];
      const refusals: unknown[] = [];
      for (const member of members) {
        const socket = startConnecting(base, member.token);
        socket.on('connect_error', (err) => refusals.push((err as { data?: unknown }).data ?? err.message));
        received.push(record(socket, 'message:new'));
        sockets.push(socket);
      }
      // Every handshake's check is inside a held call or queued for one (the gateway's gauge).
      const heldChecks = () => held.calls.reduce((n, c) => n + c.length, 0);
      const queued = await eventually(
        () => gauge(base, 'im_gateway_session_checks_waiting'),
        (waiting) => heldChecks() + waiting >= MEMBERS,
        60_000,
      );
      assert.equal(heldChecks() + queued, MEMBERS, 'all checks held or queued');
      const callsBeforeOpen = held.calls.length;
      held.open();
      await Promise.all(sockets.map(connected));
      await Promise.all(sockets.map((s) => sync(s, {})));

      assert.deepEqual(refusals, [], 'no handshake is refused');
      assert.equal(held.failed(), 1, 'one batch failed as a timeout and was tried again');
      // At most 4 calls were in flight when the storm queued; the rest went in batches of up to 500.
      assert.ok(callsBeforeOpen <= 4, `${callsBeforeOpen} calls before the gate opened`);
      assert.ok(held.calls.length <= callsBeforeOpen + 2, `${held.calls.length} calls for ${heldChecks()} checks`);
      watched.stop();
      const sessionCommands = watched.commands.filter((c) => c.startsWith('sessions.'));
      assert.ok(
        sessionCommands.every((c) => c === 'sessions.find'),
        `a token check writes no session: ${sessionCommands.join(', ')}`,
      );
      expectReads(sessionCommands, held.calls.length);

      // Every member is in the converse: one message reaches every socket once.
      const sent = (await restarted.broker.call(
        'chat.send',
        { converseId, content: 'after the storm' },
        { meta: { user: { id: owner.id } } },
      )) as Message;
      await until('every socket has the message', () => received.every((r) => r.some((m) => m.id === sent.id)), 30_000);
      assert.ok(received.every((r) => r.filter((m) => m.id === sent.id).length === 1));

      // When each session was last seen is written in batches (at the latest when the node stops).
      for (const s of sockets) s.disconnect();
      sockets.length = 0;
      await restarted.stop();
      restarted = undefined;
      const db = await connectMongo(api.env.mongoUrl, { timeoutMs: 10_000 });
      try {
        const seen = await db.collection('sessions').countDocuments({ lastSeenAt: { $gte: stormStarted } });
        assert.equal(seen, MEMBERS, 'every stormed session is marked seen');
      } finally {
        await db.close();
      }
      t.diagnostic(
        `${heldChecks()} checks in ${held.calls.length} calls (sizes ${held.calls.map((c) => c.length).join(', ')}), ${sessionCommands.length} session reads`,
      );
    });
  });
}

stormAfterRestart('a reconnect storm after a restart of the single instance (its session cache in memory)', {
  env: () => ({}),
  // The node loaded the live sessions when it started: the storm reads none.
  expectReads: (reads) => assert.deepEqual(reads, [], 'no session read during the storm'),
});

stormAfterRestart('a reconnect storm after a restart, the session cache in Redis and cold', {
  env: (api) => ({ REDIS_URL: api.env.redisUrl, REDIS_KEY_PREFIX: api.env.redisPrefix }),
  // One read per call that reached the service (the one failing as a timeout did not).
  expectReads: (reads, calls) => {
    assert.ok(reads.length > 0, 'the cold cache sends checks to the database');
    assert.ok(reads.length <= calls - 1, `${reads.length} reads for ${calls} calls`);
  },
});
