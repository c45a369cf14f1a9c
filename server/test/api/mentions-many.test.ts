import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Message, UnreadEntry } from '@im/protocol';
import mongoose, { Types } from 'mongoose';
import { connectClient } from '../realtime/client.ts';
import { apiWithSockets, eventually, expectations, type ApiHarness, groupWithMembers } from './harness.ts';

type User = Awaited<ReturnType<ApiHarness['user']>>;
type Inbox = { items: Array<{ kind: string; messageId: string }> };

describe('@all and @here', () => {
  const { api, sockets } = apiWithSockets(import.meta.url);

  const { ok } = expectations(() => api);
  const send = (u: User, converseId: string, content: string) =>
    ok<Message>('POST', `/api/converses/${converseId}/messages`, u, { content }, 201);
  const mentionsOf = async (u: User, converseId: string) =>
    (await api.request<UnreadEntry[]>('GET', '/api/unread', { token: u.token })).body.find(
      (e) => e.converseId === converseId,
    )?.mentions;
  const inbox = async (u: User) =>
    (await api.request<Inbox>('GET', '/api/notifications', { token: u.token })).body.items;

  it('@all is a mention of every member in the unread summary and the inbox, kept as a flag', async () => {
    const { owner, members, converseId } = await groupWithMembers(api, 3);
    const [reader, neverAcked, other] = members as [User, User, User];
    await send(other, converseId, 'before');
    await api.request('POST', `/api/converses/${converseId}/ack`, { token: reader.token, body: { seq: 1 } });
    const msg = await send(owner, converseId, 'news for @all!');
    assert.equal(msg.mentionsAll, true);
    assert.equal(msg.mentionsHere, undefined);
    assert.deepEqual(msg.mentions, []);

    assert.equal(await mentionsOf(reader, converseId), 1);
    assert.equal(await mentionsOf(neverAcked, converseId), 1);
    assert.equal(await mentionsOf(owner, converseId), 0, "the author's own @all does not mention them");
    // Named as well as @all: one mention, not two.
    const again = await send(owner, converseId, `@${other.username} and @all again`);
    assert.equal(await mentionsOf(other, converseId), 2);

    // Offline members find it in their inbox (the push service decided to notify them).
    const items = await eventually(
      () => inbox(neverAcked),
      (i) => i.some((n) => n.messageId === msg.id),
    );
    assert.deepEqual(
      items.filter((n) => n.messageId === msg.id).map((n) => n.kind),
      ['mention'],
    );
    assert.deepEqual(await inbox(owner), []);

    // Reading past them clears them.
    await api.request('POST', `/api/converses/${converseId}/ack`, { token: reader.token, body: { seq: msg.seq } });
    assert.equal(await mentionsOf(reader, converseId), 1);
    await api.request('POST', `/api/converses/${converseId}/ack`, { token: reader.token, body: { seq: again.seq } });
    assert.equal(await mentionsOf(reader, converseId), 0);

    const fetched = await api.request<Message>('GET', `/api/messages/${msg.id}`, { token: reader.token });
    assert.equal(fetched.body.mentionsAll, true);
  });

  it('a member who joins later finds history from before the join neither unread nor a mention', async () => {
    const { owner, groupId, converseId } = await groupWithMembers(api, 0);
    await send(owner, converseId, 'plans for @all');
    await send(owner, converseId, 'and some more');
    const { code } = await ok<{ code: string }>('POST', `/api/groups/${groupId}/invites`, owner, {}, 201);
    const late = await api.user('late');
    await ok('POST', `/api/invites/${code}/accept`, late);
    const entry = () =>
      api
        .request<UnreadEntry[]>('GET', '/api/unread', { token: late.token })
        .then((r) => r.body.find((e) => e.converseId === converseId));
    assert.deepEqual(
      { unread: (await entry())?.unread, mentions: (await entry())?.mentions },
      { unread: 0, mentions: 0 },
    );
    // What is said after the join counts as ever.
    await send(owner, converseId, 'welcome @all');
    assert.deepEqual(
      { unread: (await entry())?.unread, mentions: (await entry())?.mentions },
      { unread: 1, mentions: 1 },
    );
  });

  it('@here counts for the members online when it was sent, and notifies no one offline', async () => {
    const { owner, members, converseId } = await groupWithMembers(api, 2);
    const [online, offline] = members as [User, User];
    sockets.push(await connectClient(api.base, online.token));
    const msg = await send(owner, converseId, '@here standup in 5');
    assert.equal(msg.mentionsHere, true);
    assert.equal(msg.mentionsAll, undefined);
    assert.equal(await mentionsOf(online, converseId), 1);
    assert.equal(await mentionsOf(offline, converseId), 0);
    // A DM or mention to the offline member still reaches the inbox: it is this message that does not.
    const named = await send(owner, converseId, `@${offline.username} ping`);
    await eventually(
      () => inbox(offline),
      (i) => i.some((n) => n.messageId === named.id),
    );
    assert.ok(!(await inbox(offline)).some((n) => n.messageId === msg.id));
  });

  it('an edit moves the flags and the counts; a deletion drops them', async () => {
    const { owner, members, converseId } = await groupWithMembers(api, 1);
    const [member] = members as [User];
    const plain = await send(owner, converseId, 'hello');
    assert.equal(plain.mentionsAll, undefined);
    assert.equal(await mentionsOf(member, converseId), 0);

    const edit = (content: string) =>
      api.request<Message>('PATCH', `/api/messages/${plain.id}`, { token: owner.token, body: { content } });
    const toAll = await edit('hello @all');
    assert.equal(toAll.status, 200);
    assert.equal(toAll.body.mentionsAll, true);
    assert.equal(await mentionsOf(member, converseId), 1);

    const back = await edit('hello everyone');
    assert.equal(back.body.mentionsAll, undefined);
    assert.equal(await mentionsOf(member, converseId), 0);

    await edit('hello @all');
    assert.equal(await mentionsOf(member, converseId), 1);
    assert.equal((await api.request('DELETE', `/api/messages/${plain.id}`, { token: owner.token })).status, 204);
    assert.equal(await mentionsOf(member, converseId), 0);
    const gone = await api.request<Message>('GET', `/api/messages/${plain.id}`, { token: owner.token });
    assert.equal(gone.body.mentionsAll, undefined);
  });

  it('in a group over 100 members a plain member’s @all is plain text; an admin’s is not', async () => {
    const { owner, members, groupId, converseId } = await groupWithMembers(api, 2);
    const [plainMember, admin] = members as [User, User];
    assert.equal(
      (
        await api.request('PUT', `/api/groups/${groupId}/members/${admin.id}/role`, {
          token: owner.token,
          body: { role: 'admin' },
        })
      ).status,
      200,
    );
    // 100 more members, written straight into the group's collections (registering 100 accounts is slow).
    const db = await mongoose.createConnection(api.env.mongoUrl).asPromise();
    try {
      const extra = Array.from({ length: 100 }, () => ({
        _id: new Types.ObjectId(),
        groupId: new Types.ObjectId(groupId),
        userId: new Types.ObjectId(),
        role: 'member',
        joinedAt: new Date(),
      }));
      await db.collection('members').insertMany(extra);
      await db.collection('groups').updateOne({ _id: new Types.ObjectId(groupId) }, { $inc: { memberCount: 100 } });
    } finally {
      await db.close();
    }
    const byMember = await send(plainMember, converseId, 'hey @all');
    assert.equal(byMember.mentionsAll, undefined);
    assert.equal(byMember.content, 'hey @all');
    assert.equal(await mentionsOf(owner, converseId), 0);

    const byAdmin = await send(admin, converseId, 'heads up @all');
    assert.equal(byAdmin.mentionsAll, true);
    assert.equal(await mentionsOf(plainMember, converseId), 1);
  });
});
