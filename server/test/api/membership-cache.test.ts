import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Group, Invite } from '@im/protocol';
import { Redis } from 'ioredis';
import type { RunningNode } from '../../src/node.ts';
import { overNats, startApi, startExtraNode, type ApiHarness } from './harness.ts';

async function groupWithMember(api: ApiHarness) {
  const owner = await api.user();
  const member = await api.user();
  const group = (await api.request<Group>('POST', '/api/groups', { token: owner.token, body: { name: 'Cache' } })).body;
  const { code } = (
    await api.request<Invite>('POST', `/api/groups/${group.id}/invites`, { token: owner.token, body: {} })
  ).body;
  assert.equal((await api.request('POST', `/api/invites/${code}/accept`, { token: member.token })).status, 200);
  return { owner, member, group, converseId: group.panels[0]!.converseId };
}

describe('membership cache in Redis (REDIS_URL set)', () => {
  let api: ApiHarness;
  before(async () => {
    api = await startApi(import.meta.url, (env) => ({ REDIS_URL: env.redisUrl, REDIS_KEY_PREFIX: env.redisPrefix }));
  });
  after(() => api.close());

  it('keeps entries in Redis under the key prefix and drops them when membership changes', async () => {
    const { owner, member, group, converseId } = await groupWithMember(api);
    const redis = new Redis(api.env.redisUrl);
    try {
      assert.deepEqual(await api.broker.call('group.converseMember', { converseId, userId: member.id }), {
        groupId: group.id,
        role: 'member',
        postingRole: 'member',
        permissions: ['createInvites'],
      });
      const raw = `${api.env.redisPrefix}group:membership:m:${group.id}:${member.id}`;
      assert.equal(await redis.get(raw), 'member');
      // A mute replaces the entry: the next answer carries its end.
      const muted = await api.request('PUT', `/api/groups/${group.id}/members/${member.id}/mute`, {
        token: owner.token,
        body: { seconds: 60 },
      });
      assert.equal(muted.status, 204);
      // Dropped: gone, or already read again (with the mute) by another service's handler of the change.
      const afterMute = await redis.get(raw);
      assert.ok(afterMute === null || afterMute.startsWith('member|'), `a stale entry: ${afterMute}`);
      const answer: { mutedUntil?: number } = await api.broker.call('group.converseMember', {
        converseId,
        userId: member.id,
      });
      assert.ok(answer.mutedUntil && Math.abs(answer.mutedUntil - Date.now() - 60_000) < 30_000);
      assert.equal(await redis.get(raw), `member|${answer.mutedUntil}`);
      assert.equal(
        (await api.request('DELETE', `/api/groups/${group.id}/members/${member.id}`, { token: owner.token })).status,
        204,
      );
      // Gone, or read again since as "not a member" ('-').
      const afterKick = await redis.get(raw);
      assert.ok(afterKick === null || afterKick === '-', `a stale entry: ${afterKick}`);
      assert.equal(await api.broker.call('group.converseMember', { converseId, userId: member.id }), null);
    } finally {
      redis.disconnect();
    }
  });
});

describe('membership caches in memory on two nodes over NATS', () => {
  let api: ApiHarness;
  let other: RunningNode;
  before(async () => {
    api = await startApi(import.meta.url, overNats('node-a'));
    other = await startExtraNode(api, { SERVICES: 'group', NODE_ID: 'node-b' });
    await other.broker.waitForServices(['user', 'gateway'], 10_000);
    // node-a must know node-b's group service, or its broadcasts skip node-b.
    const knowsB = () =>
      api.broker.registry
        .getServiceList({ onlyAvailable: true })
        .some((svc) => svc.name === 'group' && svc.nodeID === 'node-b');
    for (let i = 0; i < 200 && !knowsB(); i += 1) await new Promise((r) => setTimeout(r, 25));
    assert.ok(knowsB(), 'node-a never discovered node-b');
  });
  after(async () => {
    await other?.stop();
    await api?.close();
  });

  it("a kick on one node clears the other node's cached answer", async () => {
    const { owner, member, group, converseId } = await groupWithMember(api);
    // node-b answers from its own group service (preferLocal) and caches the role.
    assert.deepEqual(await other.broker.call('group.converseMember', { converseId, userId: member.id }), {
      groupId: group.id,
      role: 'member',
      postingRole: 'member',
      permissions: ['createInvites'],
    });
    // The kick goes through node-a's gateway and group service.
    assert.equal(
      (await api.request('DELETE', `/api/groups/${group.id}/members/${member.id}`, { token: owner.token })).status,
      204,
    );
    let answer: unknown = 'unchanged';
    for (let i = 0; i < 50 && answer !== null; i += 1) {
      answer = await other.broker.call('group.converseMember', { converseId, userId: member.id });
      if (answer !== null) await new Promise((r) => setTimeout(r, 20));
    }
    assert.equal(answer, null, 'node-b still believes the kicked user is a member');
  });

  it("a user group made on one node reaches the other node's cached handle table", async () => {
    const { owner, member, group, converseId } = await groupWithMember(api);
    const expand = async () =>
      (
        (await other.broker.call('group.converseMembers', {
          converseId,
          userIds: [owner.id],
          handles: ['devs'],
        })) as { handleMemberIds?: string[] } | null
      )?.handleMemberIds;
    // node-b reads the (empty) table and keeps it.
    assert.deepEqual(await expand(), []);
    const made = await api.request('POST', `/api/groups/${group.id}/user-groups`, {
      token: owner.token,
      body: { handle: 'devs', name: 'Developers', memberIds: [member.id] },
    });
    assert.equal(made.status, 201);
    let ids: string[] | undefined = [];
    for (let i = 0; i < 50 && ids?.length === 0; i += 1) {
      ids = await expand();
      if (ids?.length === 0) await new Promise((r) => setTimeout(r, 20));
    }
    assert.deepEqual(ids, [member.id], 'node-b still reads the table from before the user group');
  });
});
