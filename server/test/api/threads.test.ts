import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FollowedThreadPage, Message, SyncResult } from '@im/protocol';
import { connectClient, record, sync, until } from '../realtime/client.ts';
import { apiSuite, type ApiUser as User } from '../support/api-suite.ts';
import { groupWithMembers } from './harness.ts';

/** Threads (shared/API.md, "Additions": Conversations). */
describe('threads', () => {
  const { api, ok, refused } = apiSuite(import.meta.url);

  const room = (n = 2) => groupWithMembers(api, n);
  const send = (user: User, converseId: string, body: Record<string, unknown>) =>
    ok<Message>('POST', `/api/converses/${converseId}/messages`, user, body, 201);
  const threads = (user: User, query = '') => ok<FollowedThreadPage>('GET', `/api/threads${query}`, user);

  it('a reply takes the converse seq, shows in history and sync, and updates its root once', async () => {
    const { owner, members, converseId } = await room(2);
    const [a, b] = members as [User, User];
    const root = await send(owner, converseId, { content: 'root' });
    const r1 = await send(a, converseId, { content: 'first reply', threadId: root.id });
    const plain = await send(owner, converseId, { content: 'not in the thread' });
    const r2 = await send(b, converseId, { content: 'second reply', threadId: root.id });
    assert.deepEqual([r1.seq, plain.seq, r2.seq], [root.seq + 1, root.seq + 2, root.seq + 3]);
    assert.equal(r1.threadId, root.id);
    assert.equal(plain.threadId, undefined);

    const history = await ok<Message[]>('GET', `/api/converses/${converseId}/messages`, b);
    assert.deepEqual(
      history.map((m) => [m.seq, m.threadId ?? null]),
      [
        [root.seq, null],
        [r1.seq, root.id],
        [plain.seq, null],
        [r2.seq, root.id],
      ],
    );
    const socket = await connectClient(api.base, b.token);
    try {
      const synced: SyncResult = await sync(socket, { [converseId]: root.seq });
      const missed = synced.converses[converseId]!.messages;
      assert.deepEqual(
        missed.map((m) => m.id),
        [r1.id, plain.id, r2.id],
      );
    } finally {
      socket.disconnect();
    }

    const after = await ok<Message>('GET', `/api/messages/${root.id}`, owner);
    assert.equal(after.thread?.replyCount, 2);
    assert.deepEqual(after.thread?.participantIds, [a.id, b.id]);
    assert.equal(after.thread?.lastReplyAt, r2.createdAt);
    const replies = await ok<Message[]>('GET', `/api/messages/${root.id}/thread`, a);
    assert.deepEqual(
      replies.map((m) => m.id),
      [r1.id, r2.id],
    );
    const later = await ok<Message[]>('GET', `/api/messages/${root.id}/thread?after=${r1.seq}&limit=5`, a);
    assert.deepEqual(
      later.map((m) => m.id),
      [r2.id],
    );
  });

  it("announces the root's new summary to sockets in the converse", async () => {
    const { owner, members, converseId } = await room(1);
    const root = await send(owner, converseId, { content: 'ask me' });
    const socket = await connectClient(api.base, owner.token);
    try {
      const updates = record(socket, 'message:updated');
      const created = record(socket, 'message:new');
      const reply = await send(members[0]!, converseId, { content: 'answer', threadId: root.id });
      await until('the root update', () => updates.some((m) => m.id === root.id));
      const update = updates.find((m) => m.id === root.id)!;
      assert.equal(update.thread?.replyCount, 1);
      assert.deepEqual(update.thread?.participantIds, [members[0]!.id]);
      await until('the reply', () => created.some((m) => m.id === reply.id));
      assert.equal(created.find((m) => m.id === reply.id)!.threadId, root.id);
    } finally {
      socket.disconnect();
    }
  });

  it('refuses a reply to a reply (400), an unknown or foreign root (404) and a deleted root (404)', async () => {
    const { owner, members, converseId, groupId } = await room(1);
    const root = await send(owner, converseId, { content: 'root' });
    const reply = await send(members[0]!, converseId, { content: 'reply', threadId: root.id });
    const path = `/api/converses/${converseId}/messages`;
    await refused('POST', path, owner, 400, 'IM_ERR_VALIDATION', { content: 'x', threadId: reply.id });
    await refused('POST', path, owner, 404, 'IM_ERR_NOT_FOUND', { content: 'x', threadId: '0'.repeat(24) });
    const panel = await ok<{ converseId: string }>(
      'POST',
      `/api/groups/${groupId}/panels`,
      owner,
      {
        name: 'other',
        type: 'text',
      },
      201,
    );
    const elsewhere = await send(owner, panel.converseId, { content: 'elsewhere' });
    await refused('POST', path, owner, 404, 'IM_ERR_NOT_FOUND', { content: 'x', threadId: elsewhere.id });
    await refused('POST', path, owner, 400, 'IM_ERR_VALIDATION', { content: 'x', threadId: 'nope' });
    const doomed = await send(owner, converseId, { content: 'soon gone' });
    await ok('DELETE', `/api/messages/${doomed.id}`, owner, undefined, 204);
    await refused('POST', path, owner, 404, 'IM_ERR_NOT_FOUND', { content: 'x', threadId: doomed.id });
    const still = await ok<Message>('GET', `/api/messages/${root.id}`, owner);
    assert.equal(still.thread?.replyCount, 1, 'refused replies do not count');
  });

  it('counts a retried send (same clientMsgId) once', async () => {
    const { owner, members, converseId } = await room(1);
    const root = await send(owner, converseId, { content: 'root' });
    const body = { content: 'once', threadId: root.id, clientMsgId: 'retry-1' };
    const first = await send(members[0]!, converseId, body);
    const again = await send(members[0]!, converseId, body);
    assert.equal(again.id, first.id);
    const after = await ok<Message>('GET', `/api/messages/${root.id}`, owner);
    assert.equal(after.thread?.replyCount, 1);
  });

  it('counts a deleted reply out of its root, once however often it is deleted', async () => {
    const { owner, members, converseId } = await room(1);
    const root = await send(owner, converseId, { content: 'root' });
    const keep = await send(members[0]!, converseId, { content: 'kept', threadId: root.id });
    const gone = await send(members[0]!, converseId, { content: 'oops', threadId: root.id });
    await ok('DELETE', `/api/messages/${gone.id}`, members[0]!, undefined, 204);
    await ok('DELETE', `/api/messages/${gone.id}`, members[0]!, undefined, 204);
    const after = await ok<Message>('GET', `/api/messages/${root.id}`, owner);
    assert.equal(after.thread?.replyCount, 1);
    const replies = await ok<Message[]>('GET', `/api/messages/${root.id}/thread`, owner);
    assert.deepEqual(
      replies.filter((m) => !m.deleted).map((m) => m.id),
      [keep.id],
    );
  });

  it('lists followed threads with unread replies, newest first, paged; ack marks one read', async () => {
    const { owner, members, converseId } = await room(3);
    const [a, b, c] = members as [User, User, User];
    const older = await send(owner, converseId, { content: 'older thread' });
    const newer = await send(b, converseId, { content: 'newer thread' });
    await send(a, converseId, { content: 'a on older', threadId: older.id });
    await send(a, converseId, { content: `b, @${b.username} look`, threadId: older.id });
    const last = await send(owner, converseId, { content: 'owner on newer', threadId: newer.id });

    // The owner follows both: wrote the older root, replied to the newer one.
    const mine = await threads(owner);
    assert.deepEqual(
      mine.items.map((t) => [t.root.id, t.unread]),
      [
        [newer.id, 0],
        [older.id, 2],
      ],
    );
    assert.equal(mine.nextCursor, null);
    // b: the newer root's author and mentioned in the older thread.
    const bs = await threads(b);
    assert.deepEqual(
      bs.items.map((t) => [t.root.id, t.unread]),
      [
        [newer.id, 1],
        [older.id, 2],
      ],
    );
    assert.equal(bs.items[0]!.root.thread?.replyCount, 1);
    // a replied (read up to their own reply); c only reads: follows nothing.
    assert.deepEqual(
      (await threads(a)).items.map((t) => [t.root.id, t.unread]),
      [[older.id, 0]],
    );
    assert.deepEqual((await threads(c)).items, []);

    await ok('POST', `/api/messages/${newer.id}/thread/ack`, b, { seq: last.seq }, 204);
    const acked = await threads(b);
    assert.deepEqual(
      acked.items.map((t) => t.unread),
      [0, 2],
    );

    const page1 = await threads(b, '?limit=1');
    assert.deepEqual(
      page1.items.map((t) => t.root.id),
      [newer.id],
    );
    assert.ok(page1.nextCursor);
    const page2 = await threads(b, `?limit=1&cursor=${page1.nextCursor}`);
    assert.deepEqual(
      page2.items.map((t) => t.root.id),
      [older.id],
    );
    assert.equal(page2.nextCursor, null);
    await refused('GET', '/api/threads?cursor=bogus', b, 400, 'IM_ERR_VALIDATION');

    // A reply moves the thread up for every follower.
    await send(c, converseId, { content: 'c joins older', threadId: older.id });
    assert.deepEqual(
      (await threads(b)).items.map((t) => [t.root.id, t.unread]),
      [
        [older.id, 3],
        [newer.id, 0],
      ],
    );
  });

  it('outsiders cannot read a thread or ack it, and a member who left stops seeing it', async () => {
    const { owner, members, converseId, groupId } = await room(1);
    const outsider = await api.user('out');
    const root = await send(owner, converseId, { content: 'private' });
    await send(members[0]!, converseId, { content: 'reply', threadId: root.id });
    await refused('GET', `/api/messages/${root.id}/thread`, outsider, 404, 'IM_ERR_NOT_FOUND');
    await refused('POST', `/api/messages/${root.id}/thread/ack`, outsider, 404, 'IM_ERR_NOT_FOUND', { seq: 1 });
    await refused('POST', `/api/converses/${converseId}/messages`, outsider, 404, 'IM_ERR_NOT_FOUND', {
      content: 'x',
      threadId: root.id,
    });
    assert.equal((await threads(members[0]!)).items.length, 1);
    await ok('DELETE', `/api/groups/${groupId}/members/${members[0]!.id}`, members[0]!, undefined, 204);
    assert.deepEqual((await threads(members[0]!)).items, []);
  });
});
