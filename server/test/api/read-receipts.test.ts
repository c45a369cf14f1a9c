import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { DmConverse, Me, Message, ReadReceipt } from '@im/protocol';
import mongoose, { Types } from 'mongoose';
import { connectClient, pause, record, until } from '../realtime/client.ts';
import { apiWithSockets, type ApiHarness, groupWithMembers } from './harness.ts';

type User = Awaited<ReturnType<ApiHarness['user']>>;

describe('read receipts', () => {
  const { api, sockets } = apiWithSockets(import.meta.url);

  const send = async (u: User, converseId: string, content: string) =>
    (await api.request<Message>('POST', `/api/converses/${converseId}/messages`, { token: u.token, body: { content } }))
      .body;
  const ack = (u: User, converseId: string, seq: number) =>
    api.request('POST', `/api/converses/${converseId}/ack`, { token: u.token, body: { seq } });
  const reads = async (u: User, converseId: string) => {
    const res = await api.request<ReadReceipt[]>('GET', `/api/converses/${converseId}/reads`, { token: u.token });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return Object.fromEntries(res.body.map((r) => [r.userId, r.readSeq]));
  };

  it('lists how far members read, and tells the converse on each ack', async () => {
    const { owner, members, converseId } = await groupWithMembers(api, 2);
    const [reader, idle] = members as [User, User];
    const ownerSocket = await connectClient(api.base, owner.token);
    sockets.push(ownerSocket);
    const seen = record(ownerSocket, 'read:updated');
    await send(owner, converseId, 'one');
    const two = await send(owner, converseId, 'two');
    assert.equal((await ack(reader, converseId, two.seq)).status, 204);
    await until('read:updated', () => seen.length > 0);
    assert.deepEqual(seen[0], { converseId, userId: reader.id, readSeq: two.seq });

    const listed = await reads(idle, converseId);
    assert.equal(listed[reader.id], two.seq);
    assert.equal(listed[owner.id], two.seq, "the author's send reads up to it");
    assert.equal(listed[idle.id], undefined, 'a member who read nothing is not listed');
  });

  it('works in DMs', async () => {
    const [a, b] = [await api.user('da'), await api.user('db')];
    const dm = (await api.request<DmConverse>('POST', '/api/dms', { token: a.token, body: { userId: b.id } })).body;
    const aSocket = await connectClient(api.base, a.token);
    sockets.push(aSocket);
    const seen = record(aSocket, 'read:updated');
    const msg = await send(a, dm.id, 'hi');
    await ack(b, dm.id, msg.seq);
    await until('read:updated in the DM', () => seen.some((e) => e.userId === b.id));
    assert.equal((await reads(a, dm.id))[b.id], msg.seq);
  });

  it('a user who stops sharing is left out and acks emit nothing', async () => {
    const { owner, members, converseId } = await groupWithMembers(api, 1);
    const [shy] = members as [User];
    const patched = await api.request('PATCH', '/api/users/me', {
      token: shy.token,
      body: { shareReadReceipts: false },
    });
    assert.equal(patched.status, 200);
    assert.equal((await api.request<Me>('GET', '/api/users/me', { token: shy.token })).body.shareReadReceipts, false);
    assert.equal((await api.request<Me>('GET', '/api/users/me', { token: owner.token })).body.shareReadReceipts, true);

    const ownerSocket = await connectClient(api.base, owner.token);
    sockets.push(ownerSocket);
    const seen = record(ownerSocket, 'read:updated');
    const read = record(ownerSocket, 'message:new');
    const msg = await send(owner, converseId, 'did you read this?');
    await ack(shy, converseId, msg.seq);
    // A later event on the same socket: by then the ack's would have arrived.
    await send(owner, converseId, 'marker');
    await until('marker', () => read.length === 2);
    await pause(200);
    assert.deepEqual(seen, []);
    assert.equal((await reads(owner, converseId))[shy.id], undefined);

    // Sharing again: listed again.
    await api.request('PATCH', '/api/users/me', { token: shy.token, body: { shareReadReceipts: true } });
    assert.equal((await reads(owner, converseId))[shy.id], msg.seq);
  });

  it('refuses outsiders and bad input', async () => {
    const { converseId } = await groupWithMembers(api, 0);
    const outsider = await api.user('ro');
    const res = await api.request<{ error: { code: string } }>('GET', `/api/converses/${converseId}/reads`, {
      token: outsider.token,
    });
    assert.equal(res.status, 404);
    assert.equal(res.body.error.code, 'IM_ERR_NOT_FOUND');
    assert.equal((await api.request('GET', '/api/converses/nope/reads', { token: outsider.token })).status, 400);
    const bad = await api.request('PATCH', '/api/users/me', {
      token: outsider.token,
      body: { shareReadReceipts: 'no' },
    });
    assert.equal(bad.status, 400);
  });

  it('a converse over 50 members has no receipts: an empty list, no events', async () => {
    const { owner, members, groupId, converseId } = await groupWithMembers(api, 1);
    const [member] = members as [User];
    const db = await mongoose.createConnection(api.env.mongoUrl).asPromise();
    try {
      await db.collection('members').insertMany(
        Array.from({ length: 50 }, () => ({
          groupId: new Types.ObjectId(groupId),
          userId: new Types.ObjectId(),
          role: 'member',
          joinedAt: new Date(),
        })),
      );
      await db.collection('groups').updateOne({ _id: new Types.ObjectId(groupId) }, { $inc: { memberCount: 50 } });
    } finally {
      await db.close();
    }
    const ownerSocket = await connectClient(api.base, owner.token);
    sockets.push(ownerSocket);
    const seen = record(ownerSocket, 'read:updated');
    const news = record(ownerSocket, 'message:new');
    const msg = await send(owner, converseId, 'big room');
    await ack(member, converseId, msg.seq);
    await send(owner, converseId, 'marker');
    await until('marker', () => news.length === 2);
    await pause(200);
    assert.deepEqual(seen, []);
    const res = await api.request<ReadReceipt[]>('GET', `/api/converses/${converseId}/reads`, { token: owner.token });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, []);
  });
});
