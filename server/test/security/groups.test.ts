import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Group, Message, UnreadEntry } from '@im/protocol';
import mongoose, { Types } from 'mongoose';
import { connectClient } from '../realtime/client.ts';
import { apiWithSockets, expectations, groupWithMembers, type ApiHarness } from '../api/harness.ts';

type User = Awaited<ReturnType<ApiHarness['user']>>;

/** Runs `work` over `items`, `width` at a time. */
async function inParallel<T>(items: readonly T[], width: number, work: (item: T) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < items.length; i += width) await Promise.all(items.slice(i, i + width).map(work));
}

describe('groups, presence and mentions against bad faith', () => {
  const { api, sockets } = apiWithSockets(import.meta.url);
  const { ok, refused } = expectations(() => api);
  const send = (u: User, converseId: string, content: string) =>
    ok<Message>('POST', `/api/converses/${converseId}/messages`, u, { content }, 201);

  /** `n` more members written straight into a group's collections (registering 100 accounts is slow). */
  async function padGroup(groupId: string, n: number): Promise<void> {
    const db = await mongoose.createConnection(api.env.mongoUrl).asPromise();
    try {
      await db.collection('members').insertMany(
        Array.from({ length: n }, () => ({
          _id: new Types.ObjectId(),
          groupId: new Types.ObjectId(groupId),
          userId: new Types.ObjectId(),
          role: 'member',
          joinedAt: new Date(),
        })),
      );
      await db.collection('groups').updateOne({ _id: new Types.ObjectId(groupId) }, { $inc: { memberCount: n } });
    } finally {
      await db.close();
    }
  }

  it("revokes a kicked member's invites; a member who leaves keeps theirs", async () => {
    const { owner, members, groupId } = await groupWithMembers(api, 2, 'Invites');
    const [kicked, leaver] = members as [User, User];
    const kickedInvite = await ok<{ code: string }>('POST', `/api/groups/${groupId}/invites`, kicked, {}, 201);
    const leaverInvite = await ok<{ code: string }>('POST', `/api/groups/${groupId}/invites`, leaver, {}, 201);

    await ok('DELETE', `/api/groups/${groupId}/members/${kicked.id}`, owner, undefined, 204);
    const newcomer = await api.user('new');
    await refused('POST', `/api/invites/${kickedInvite.code}/accept`, newcomer, 404, 'IM_ERR_NOT_FOUND');
    const listed = await ok<Array<{ code: string }>>('GET', `/api/groups/${groupId}/invites`, owner);
    assert.ok(!listed.some((i) => i.code === kickedInvite.code), 'the kicked member’s invite is gone from the list');

    await ok('DELETE', `/api/groups/${groupId}/members/${leaver.id}`, leaver, undefined, 204);
    const joined = await ok<Group>('POST', `/api/invites/${leaverInvite.code}/accept`, newcomer);
    assert.equal(joined.id, groupId);
  });

  it("revokes a deleted account's invites in every group", async () => {
    const { members, groupId } = await groupWithMembers(api, 1, 'Departed');
    const [departing] = members as [User];
    const invite = await ok<{ code: string }>('POST', `/api/groups/${groupId}/invites`, departing, {}, 201);
    const early = await api.user('early');
    await ok<Group>('POST', `/api/invites/${invite.code}/accept`, early);

    await ok('DELETE', '/api/users/me', departing, undefined, 204);
    const late = await api.user('late');
    await refused('POST', `/api/invites/${invite.code}/accept`, late, 404, 'IM_ERR_NOT_FOUND');
  });

  it('GET /api/presence answers only for users who share a group or a DM with the caller', async () => {
    const { owner: alice, members, groupId } = await groupWithMembers(api, 1, 'Presence');
    const [groupmate] = members as [User];
    const dmPartner = await api.user('dm');
    const stranger = await api.user('str');
    const dm = await ok<{ id: string }>('POST', '/api/dms', dmPartner, { userId: alice.id });
    await send(alice, dm.id, 'hello');
    for (const u of [alice, groupmate, dmPartner, stranger]) sockets.push(await connectClient(api.base, u.token));

    const ids = [groupmate.id, dmPartner.id, stranger.id, alice.id].join(',');
    const seen = await ok<{ online: string[] }>('GET', `/api/presence?userIds=${ids}`, alice);
    assert.deepEqual(seen.online.sort(), [alice.id, dmPartner.id, groupmate.id].sort());

    // The stranger learns nothing of anyone, not even by opening a DM nobody wrote in;
    // once they join the group they see its members.
    await ok('POST', '/api/dms', stranger, { userId: alice.id });
    const strangerSees = await ok<{ online: string[] }>('GET', `/api/presence?userIds=${ids}`, stranger);
    assert.deepEqual(strangerSees.online, [stranger.id]);
    const invite = await ok<{ code: string }>('POST', `/api/groups/${groupId}/invites`, alice, {}, 201);
    await ok('POST', `/api/invites/${invite.code}/accept`, stranger);
    const nowSees = await ok<{ online: string[] }>('GET', `/api/presence?userIds=${ids}`, stranger);
    assert.deepEqual(nowSees.online.sort(), [alice.id, groupmate.id, stranger.id].sort());
    // Banned, they see nobody of the group again.
    await ok('PUT', `/api/groups/${groupId}/bans/${stranger.id}`, alice, {}, 204);
    const bannedSees = await ok<{ online: string[] }>('GET', `/api/presence?userIds=${ids}`, stranger);
    assert.deepEqual(bannedSees.online, [stranger.id]);
  });

  it('in a group over 100 members a plain member’s @here is plain text, like @all; an admin’s is not', async () => {
    const { owner, members, groupId, converseId } = await groupWithMembers(api, 2, 'Crowd');
    const [plainMember, admin] = members as [User, User];
    await ok('PUT', `/api/groups/${groupId}/members/${admin.id}/role`, owner, { role: 'admin' });
    await padGroup(groupId, 100);
    const mentionsOf = async (u: User) =>
      (await ok<UnreadEntry[]>('GET', '/api/unread', u)).find((e) => e.converseId === converseId)?.mentions;

    const byMember = await send(plainMember, converseId, 'hey @here');
    assert.equal(byMember.mentionsHere, undefined);
    assert.equal(byMember.content, 'hey @here');
    assert.equal(await mentionsOf(owner), 0);
    // Nor can an edit add it.
    const edited = await ok<Message>('PATCH', `/api/messages/${byMember.id}`, plainMember, { content: 'now @here' });
    assert.equal(edited.mentionsHere, undefined);

    // @here names who is online: the plain member is.
    sockets.push(await connectClient(api.base, plainMember.token));
    const byAdmin = await send(admin, converseId, 'heads up @here');
    assert.equal(byAdmin.mentionsHere, true);
    assert.equal(await mentionsOf(plainMember), 1);
  });

  it('keeps at most the newest 1,000 mention seqs per read position', async () => {
    const { owner, members, converseId } = await groupWithMembers(api, 1, 'Pings');
    const [target] = members as [User];
    const total = 1010;
    await inParallel(
      Array.from({ length: total }, (_, i) => i),
      50,
      (i) => send(owner, converseId, `@${target.username} ping ${i}`),
    );
    const db = await mongoose.createConnection(api.env.mongoUrl).asPromise();
    try {
      const read = await db
        .collection('reads')
        .findOne({ userId: new Types.ObjectId(target.id), converseId: new Types.ObjectId(converseId) });
      const kept = (read?.mentionSeqs as number[] | undefined) ?? [];
      assert.equal(kept.length, 1000);
      assert.equal(Math.max(...kept), total, 'the newest mention is kept');
      assert.equal(Math.min(...kept), total - 999, 'the oldest ones went');
    } finally {
      await db.close();
    }
    const summary = await ok<UnreadEntry[]>('GET', '/api/unread', target);
    assert.equal(summary.find((e) => e.converseId === converseId)?.mentions, 1000);
    // Reading still trims, and a new mention still counts.
    await ok('POST', `/api/converses/${converseId}/ack`, target, { seq: total }, 204);
    await send(owner, converseId, `@${target.username} one more`);
    const after = await ok<UnreadEntry[]>('GET', '/api/unread', target);
    assert.equal(after.find((e) => e.converseId === converseId)?.mentions, 1);
  });

  it('a DM whose id was asked about before it existed still works (the "not a DM" answer is not kept for good)', async () => {
    const attacker = await api.user('atk');
    const alice = await api.user('ali');
    const bob = await api.user('bob');
    // An id nobody has used yet, asked about: today it is no converse at all.
    const guessed = new Types.ObjectId().toHexString();
    await refused('GET', `/api/converses/${guessed}/messages`, attacker, 404, 'IM_ERR_NOT_FOUND');
    // Then a DM is made with that id (on MongoDB upserted ids come from a counter, as predictable as ours).
    const db = await mongoose.createConnection(api.env.mongoUrl).asPromise();
    try {
      const members = [alice.id, bob.id].sort();
      await db.collection('converses').insertOne({
        _id: new Types.ObjectId(guessed),
        dmKey: members.join(':'),
        type: 'dm',
        memberIds: members.map((id) => new Types.ObjectId(id)),
        lastSeq: 0,
        createdAt: new Date(),
      });
    } finally {
      await db.close();
    }
    await send(alice, guessed, 'hello bob');
    await send(bob, guessed, 'hello alice');
    await refused('GET', `/api/converses/${guessed}/messages`, attacker, 404, 'IM_ERR_NOT_FOUND');
  });

  it("a new group's panel whose converse id was asked about before the group existed works at once", async () => {
    const attacker = await api.user('atk');
    const bob = await api.user('bob');
    // ObjectIds are a process part, a time and a counter that every id made moves on, each
    // database command included: what an attacker reads from answers (here the test reads it
    // from this process). They learn how far one guess moves it, then ask about the ids the next
    // group will get. A guess that misses the second or meets other traffic is tried again.
    const counter = () => parseInt(new Types.ObjectId().toHexString().slice(18), 16);
    const ask = (id: string) => api.request('GET', `/api/converses/${id}/messages`, { token: attacker.token });
    let hit: Group | undefined;
    for (let attempt = 0; attempt < 20 && !hit; attempt += 1) {
      const before = counter();
      await ask(new Types.ObjectId().toHexString());
      const perGuess = counter() - before - 2;
      const start = counter();
      const seconds = Math.floor(Date.now() / 1000)
        .toString(16)
        .padStart(8, '0');
      const processPart = new Types.ObjectId().toHexString().slice(8, 18);
      const n = 6;
      const guesses = Array.from({ length: n }, (_, i) =>
        (seconds + processPart + (start + 1 + (perGuess * n + 1) + i).toString(16).padStart(6, '0')).slice(0, 24),
      );
      for (const id of guesses) await ask(id);
      const group = await ok<Group>('POST', '/api/groups', bob, { name: 'fresh' }, 201);
      if (guesses.includes(group.panels[0]!.converseId)) hit = group;
    }
    assert.ok(hit, 'the attacker guessed a new group’s panel');
    await send(bob, hit.panels[0]!.converseId, 'first in the new group');
  });
});
