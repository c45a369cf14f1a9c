import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Group, Invite, Panel, UserRooms } from '@im/protocol';
import { Redis } from 'ioredis';
import { Types, type Connection } from 'mongoose';
import type { ServiceBroker } from 'moleculer';
import type { RunningNode } from '../../src/node.ts';
import { overNats, startApi, startExtraNode, startSingleNode, type ApiHarness } from './harness.ts';

type User = Awaited<ReturnType<ApiHarness['user']>>;

/** What MongoDB says a user's rooms are: the oracle the index must agree with (join order, panel order). */
async function storedRooms(db: Connection, userId: string): Promise<UserRooms> {
  const id = new Types.ObjectId(userId);
  const memberships = await db.collection('members').find({ userId: id }).sort({ joinedAt: 1 }).toArray();
  const groups = await db
    .collection('groups')
    .find({ _id: { $in: memberships.map((m) => m.groupId as Types.ObjectId) } })
    .toArray();
  const byId = new Map(groups.map((g) => [g._id.toHexString(), g]));
  const dms = await db.collection('converses').find({ type: 'dm', memberIds: id }).sort({ _id: 1 }).toArray();
  type StoredPanel = {
    converseId: Types.ObjectId;
    private?: boolean;
    allowRoleIds?: Types.ObjectId[];
    allowUserIds?: Types.ObjectId[];
  };
  // A private panel: owner, admins, holders of an allowed role, allowed people; listed after the others.
  const sees = (m: (typeof memberships)[number], p: StoredPanel) =>
    !p.private ||
    m.role === 'owner' ||
    m.role === 'admin' ||
    (p.allowUserIds ?? []).some((u) => u.equals(id)) ||
    (p.allowRoleIds ?? []).some((r) => ((m.roleIds as Types.ObjectId[] | undefined) ?? []).some((h) => h.equals(r)));
  return {
    groups: memberships.flatMap((m) => {
      const g = byId.get((m.groupId as Types.ObjectId).toHexString());
      if (!g) return [];
      const panels = g.panels as StoredPanel[];
      return [
        {
          groupId: g._id.toHexString(),
          memberCount: g.memberCount as number,
          converseIds: [...panels.filter((p) => !p.private), ...panels.filter((p) => p.private && sees(m, p))].map(
            (p) => p.converseId.toHexString(),
          ),
        },
      ];
    }),
    dmIds: dms.map((d) => d._id.toHexString()),
  };
}

const ROOM_COLLECTIONS = new Set(['groups', 'members', 'converses']);

/** `chat.userRooms` as a connect calls it, and the database commands it made (mongoose's per-connection hook). */
async function roomsAndCommands(broker: ServiceBroker, db: Connection, userId: string) {
  const commands: string[] = [];
  // Only what a room lookup could read: other services' event handlers share the connection and may run meanwhile.
  db.set('debug', (collection: string, method: string) => {
    if (ROOM_COLLECTIONS.has(collection)) commands.push(`${collection}.${method}`);
  });
  try {
    return { rooms: await broker.call<UserRooms, { userId: string }>('chat.userRooms', { userId }), commands };
  } finally {
    db.set('debug', false);
  }
}

/** The index answers what MongoDB holds, without asking MongoDB. */
async function expectIndexed(broker: ServiceBroker, db: Connection, users: User[]) {
  for (const u of users) {
    const { rooms, commands } = await roomsAndCommands(broker, db, u.id);
    assert.deepEqual(commands, [], 'a connect reads no database');
    assert.deepEqual(rooms, await storedRooms(db, u.id));
  }
}

async function inviteAndJoin(api: ApiHarness, owner: User, groupId: string, user: User) {
  const invite = await api.request<Invite>('POST', `/api/groups/${groupId}/invites`, { token: owner.token, body: {} });
  const res = await api.request('POST', `/api/invites/${invite.body.code}/accept`, { token: user.token });
  assert.equal(res.status, 200);
}

/** One registered user per prefix, in order. */
async function users<const P extends readonly string[]>(
  api: ApiHarness,
  prefixes: P,
): Promise<{ [K in keyof P]: User }> {
  const out: User[] = [];
  for (const p of prefixes) out.push(await api.user(p));
  return out as { [K in keyof P]: User };
}

const ok = async (api: ApiHarness, method: string, path: string, user: User, body?: unknown) => {
  const res = await api.request(method, path, { token: user.token, ...(body !== undefined ? { body } : {}) });
  assert.ok(res.status < 300, `${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
};

describe('room index in memory (single instance)', () => {
  let api: ApiHarness;
  let restarted: RunningNode | undefined;
  before(async () => {
    api = await startApi(import.meta.url);
  });
  after(async () => {
    await restarted?.stop();
    if (!restarted) await api?.node.stop();
    await api?.env.close();
  });

  it('follows every change of membership, groups, panels and DMs, and survives a restart', async () => {
    const db = api.node.app.mongo!;
    const [owner, alice, bob, carol, bot] = await users(api, ['ro', 'ra', 'rb', 'rc', 'rbot']);
    const everyone = [owner, alice, bob, carol, bot];
    await expectIndexed(api.broker, db, everyone);

    // Group create by the owner, joins by invite and a public join, a bot.
    const group = (await ok(api, 'POST', '/api/groups', owner, { name: 'Index' })) as Group;
    const other = (await ok(api, 'POST', '/api/groups', alice, { name: 'Second' })) as Group;
    await inviteAndJoin(api, owner, group.id, alice);
    await inviteAndJoin(api, owner, group.id, bob);
    await inviteAndJoin(api, owner, group.id, carol);
    await ok(api, 'PATCH', `/api/groups/${other.id}`, alice, { visibility: 'public' });
    await ok(api, 'POST', `/api/groups/${other.id}/join`, bob);
    await api.broker.call('group.addBot', { groupId: group.id, userId: bot.id });
    await expectIndexed(api.broker, db, everyone);

    // Panels made and deleted.
    const panel = (await ok(api, 'POST', `/api/groups/${group.id}/panels`, owner, {
      name: 'two',
      type: 'text',
    })) as Panel;
    await ok(api, 'POST', `/api/groups/${group.id}/panels`, owner, { name: 'three', type: 'text' });
    await expectIndexed(api.broker, db, [owner, alice]);
    await ok(api, 'DELETE', `/api/groups/${group.id}/panels/${panel.id}`, owner);
    await expectIndexed(api.broker, db, [owner, alice]);

    // DMs, opened from either side, and again.
    await ok(api, 'POST', '/api/dms', alice, { userId: bob.id });
    await ok(api, 'POST', '/api/dms', bob, { userId: alice.id });
    await ok(api, 'POST', '/api/dms', carol, { userId: alice.id });
    await expectIndexed(api.broker, db, everyone);

    // Leave, kick, ban, bot removal.
    await ok(api, 'DELETE', `/api/groups/${group.id}/members/${alice.id}`, alice);
    await ok(api, 'DELETE', `/api/groups/${group.id}/members/${bob.id}`, owner);
    await ok(api, 'PUT', `/api/groups/${group.id}/bans/${carol.id}`, owner, {});
    await api.broker.call('group.removeBot', { groupId: group.id, userId: bot.id });
    await expectIndexed(api.broker, db, everyone);
    assert.deepEqual(
      (await roomsAndCommands(api.broker, db, owner.id)).rooms.groups.map((g) => g.memberCount),
      [1],
    );

    // Group deletion takes it from every member.
    await inviteAndJoin(api, owner, group.id, alice);
    await ok(api, 'DELETE', `/api/groups/${other.id}`, alice);
    await expectIndexed(api.broker, db, everyone);
    const before = await Promise.all(everyone.map((u) => storedRooms(db, u.id)));
    assert.ok(before[1]!.groups.length === 1 && before[1]!.dmIds.length === 2);

    // The same rooms after a restart, rebuilt from MongoDB, still without a database command.
    await api.node.stop();
    restarted = (await startSingleNode(api.env, {})).node;
    const db2 = restarted.app.mongo!;
    await expectIndexed(restarted.broker, db2, everyone);
    assert.deepEqual(await Promise.all(everyone.map((u) => storedRooms(db2, u.id))), before);
  });
});

describe('room index with private panels (single instance)', () => {
  let api: ApiHarness;
  let restarted: RunningNode | undefined;
  before(async () => {
    api = await startApi(import.meta.url);
  });
  after(async () => {
    await restarted?.stop();
    if (!restarted) await api?.node.stop();
    await api?.env.close();
  });

  it('lists a private panel only for those it allows, as they change, and after a restart', async () => {
    const node = () => restarted ?? api.node;
    const [owner, admin, holder, named, plain] = await users(api, ['po', 'pa', 'ph', 'pn', 'pp']);
    const everyone = [owner, admin, holder, named, plain];
    const group = (await ok(api, 'POST', '/api/groups', owner, { name: 'Private' })) as Group;
    for (const u of [admin, holder, named, plain]) await inviteAndJoin(api, owner, group.id, u);
    await ok(api, 'PUT', `/api/groups/${group.id}/members/${admin.id}/role`, owner, { role: 'admin' });
    const role = (await ok(api, 'POST', `/api/groups/${group.id}/roles`, owner, { name: 'in', permissions: [] })) as {
      id: string;
    };
    await ok(api, 'PUT', `/api/groups/${group.id}/members/${holder.id}/roles/${role.id}`, owner);
    const secret = (await ok(api, 'POST', `/api/groups/${group.id}/panels`, owner, {
      name: 'secret',
      type: 'text',
      private: true,
      allowRoleIds: [role.id],
      allowUserIds: [named.id],
    })) as Panel;
    const open = (await ok(api, 'POST', `/api/groups/${group.id}/panels`, owner, {
      name: 'open',
      type: 'text',
    })) as Panel;
    await ok(api, 'PATCH', `/api/groups/${group.id}/panels/${open.id}`, owner, { private: true });

    // Who sees what, checked against MongoDB; the lookups are cached after the first (a second asks no database).
    const check = async () => {
      for (const u of everyone) {
        const db = node().app.mongo!;
        const first = await roomsAndCommands(node().broker, db, u.id);
        assert.deepEqual(first.rooms, await storedRooms(db, u.id));
        assert.deepEqual((await roomsAndCommands(node().broker, db, u.id)).commands, []);
      }
    };
    await check();
    const seen = async (u: User) =>
      (await roomsAndCommands(node().broker, node().app.mongo!, u.id)).rooms.groups.find((g) => g.groupId === group.id)!
        .converseIds;
    assert.ok((await seen(holder)).includes(secret.converseId));
    assert.ok(!(await seen(plain)).includes(secret.converseId));
    assert.ok(!(await seen(holder)).includes(open.converseId));
    assert.ok((await seen(admin)).includes(open.converseId));

    await ok(api, 'DELETE', `/api/groups/${group.id}/members/${holder.id}/roles/${role.id}`, owner);
    await ok(api, 'PATCH', `/api/groups/${group.id}/panels/${open.id}`, owner, { private: false });
    await ok(api, 'PUT', `/api/groups/${group.id}/members/${admin.id}/role`, owner, { role: 'member' });
    await check();
    assert.ok(!(await seen(holder)).includes(secret.converseId));
    assert.ok(!(await seen(admin)).includes(secret.converseId));
    assert.ok((await seen(plain)).includes(open.converseId));

    // Rebuilt from MongoDB: the same.
    await node().stop();
    restarted = (await startSingleNode(api.env, {})).node;
    await check();
  });
});

describe('room index in Redis, two group and chat nodes', () => {
  let api: ApiHarness;
  let other: RunningNode;
  let redis: Redis;
  before(async () => {
    api = await startApi(import.meta.url, (env) => ({
      ...overNats('rooms-a')(env),
      REDIS_URL: env.redisUrl,
      REDIS_KEY_PREFIX: env.redisPrefix,
    }));
    other = await startExtraNode(api, {
      SERVICES: 'group,chat',
      NODE_ID: 'rooms-b',
      REDIS_URL: api.env.redisUrl,
      REDIS_KEY_PREFIX: api.env.redisPrefix,
    });
    await other.broker.waitForServices(['user'], 10_000);
    redis = new Redis(api.env.redisUrl, { keyPrefix: api.env.redisPrefix });
  });
  after(async () => {
    redis?.disconnect();
    await other?.stop();
    await api?.close();
  });

  it('answers the same on both nodes, from Redis, whichever node made the change', async () => {
    const [dbA, dbB] = [api.node.app.mongo!, other.app.mongo!];
    const [owner, alice, bob] = await users(api, ['co', 'ca', 'cb']);
    const group = (await ok(api, 'POST', '/api/groups', owner, { name: 'Shared' })) as Group;
    await inviteAndJoin(api, owner, group.id, alice);
    await inviteAndJoin(api, owner, group.id, bob);
    await ok(api, 'POST', `/api/groups/${group.id}/panels`, owner, { name: 'two', type: 'text' });
    await ok(api, 'POST', '/api/dms', alice, { userId: bob.id });
    // Node B answers A's changes (its own chat and group services, preferred locally).
    await expectIndexed(other.broker, dbB, [owner, alice, bob]);

    // A change made on node B, read on node A.
    await other.broker.call(
      'group.removeMember',
      { groupId: group.id, userId: bob.id },
      { meta: { user: { id: owner.id } } },
    );
    await other.broker.call('chat.openDm', { userId: owner.id }, { meta: { user: { id: bob.id } } });
    await expectIndexed(api.broker, dbA, [owner, alice, bob]);
    await expectIndexed(other.broker, dbB, [owner, alice, bob]);

    // A private panel made on node A: node B lists it for the one it allows only.
    const secret = (await ok(api, 'POST', `/api/groups/${group.id}/panels`, owner, {
      name: 'secret',
      type: 'text',
      private: true,
      allowUserIds: [alice.id],
    })) as Panel;
    for (const u of [owner, alice, bob]) {
      const { rooms } = await roomsAndCommands(other.broker, dbB, u.id);
      assert.deepEqual(rooms, await storedRooms(dbB, u.id));
    }
    const listed = async (u: User) =>
      (await roomsAndCommands(other.broker, dbB, u.id)).rooms.groups.some((g) =>
        g.converseIds.includes(secret.converseId),
      );
    assert.equal(await listed(alice), true);
    assert.equal(await listed(owner), true);

    // Both nodes' rebuilds left one ready generation each, in Redis under the prefix.
    assert.ok(await redis.get('index:group-rooms:ready'));
    assert.ok(await redis.get('index:dms:ready'));

    // Without a ready generation, connects read MongoDB: the same answer.
    await redis.del('index:group-rooms:ready', 'index:dms:ready');
    const { rooms, commands } = await roomsAndCommands(other.broker, dbB, alice.id);
    assert.ok(commands.length > 0);
    assert.deepEqual(rooms, await storedRooms(dbB, alice.id));
  });
});
