import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { DmConverse, Group, Message, Reaction, UnreadEntry } from '@im/protocol';
import { eventually } from './harness.ts';
import { groupWithMembers } from '../support/conversations.ts';
import { apiSuite, type ApiUser as User } from '../support/api-suite.ts';

type Err = { error: { code: string; message: string } };

describe('conversations and messages', () => {
  const { api } = apiSuite(import.meta.url);
  const events: Array<{ name: string; params: Record<string, unknown> }> = [];

  before(async () => {
    api.broker.createService({
      name: 'chat-event-recorder',
      events: {
        'chat.**': (ctx) => {
          events.push({ name: ctx.eventName ?? '', params: ctx.params as Record<string, unknown> });
        },
      },
    });
    await api.broker.waitForServices(['chat-event-recorder']);
  });

  /** An owner with a group, plus `n` more members; returns the group's converse. */
  const room = (n = 1) => groupWithMembers(api, n);
  const send = (user: User, converseId: string, body: Record<string, unknown>) =>
    api.request<Message>('POST', `/api/converses/${converseId}/messages`, { token: user.token, body });
  const history = async (user: User, converseId: string, query = '') =>
    (await api.request<Message[]>('GET', `/api/converses/${converseId}/messages${query}`, { token: user.token })).body;
  const allMessages = async (user: User, converseId: string) => {
    const out: Message[] = [];
    let after = 0;
    for (;;) {
      const page = await history(user, converseId, `?after=${after}&limit=100`);
      out.push(...page);
      if (page.length < 100) return out;
      after = page.at(-1)!.seq;
    }
  };

  it('sends and reads back, with the event leaving after the write', async () => {
    const { owner, members, group, converseId } = await room(1);
    const sent = await send(owner, converseId, { content: 'hello\nworld' });
    assert.equal(sent.status, 201);
    assert.equal(sent.body.seq, 1);
    assert.equal(sent.body.content, 'hello\nworld');
    assert.equal(sent.body.authorId, owner.id);
    assert.deepEqual(sent.body.reactions, []);
    const seen = await history(members[0]!, converseId);
    assert.deepEqual(seen, [sent.body]);
    const one = await api.request<Message>('GET', `/api/messages/${sent.body.id}`, { token: members[0]!.token });
    assert.deepEqual(one.body, sent.body);
    const ev = events.find(
      (e) => e.name === 'chat.message.created' && (e.params.message as Message).id === sent.body.id,
    );
    assert.ok(ev, 'no chat.message.created event');
    assert.deepEqual(
      ev.params,
      { message: sent.body, kind: 'group', groupId: group.id },
      'group messages say so and carry their group, no member list',
    );
  });

  it('numbers 200 concurrent sends from 10 users 1..200 with no gap and no duplicate', async () => {
    const { owner, members, converseId } = await room(9);
    const senders = [owner, ...members];
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) => send(senders[i % senders.length]!, converseId, { content: `m${i}` })),
    );
    assert.ok(results.every((r) => r.status === 201));
    assert.deepEqual(
      results.map((r) => r.body.seq).sort((a, b) => a - b),
      Array.from({ length: 200 }, (_, i) => i + 1),
    );
    const stored = await allMessages(owner, converseId);
    assert.deepEqual(
      stored.map((m) => m.seq),
      Array.from({ length: 200 }, (_, i) => i + 1),
    );
    assert.equal(new Set(stored.map((m) => m.content)).size, 200);
  });

  it('also through the broker: concurrent sends to two converses keep each sequence whole', async () => {
    const a = await room(0);
    const b = await room(0);
    const calls = Array.from({ length: 100 }, (_, i) => {
      const r = i % 2 ? a : b;
      return api.broker.call(
        'chat.send',
        { converseId: r.converseId, content: `x${i}` },
        { meta: { user: { id: r.owner.id } } },
      ) as Promise<Message>;
    });
    const sent = await Promise.all(calls);
    for (const r of [a, b]) {
      const seqs = sent
        .filter((m) => m.converseId === r.converseId)
        .map((m) => m.seq)
        .sort((x, y) => x - y);
      assert.deepEqual(
        seqs,
        Array.from({ length: 50 }, (_, i) => i + 1),
      );
    }
  });

  it('stores one message for the same clientMsgId, sent twice in a row or at once', async () => {
    const { owner, converseId } = await room(0);
    const first = await send(owner, converseId, { content: 'once', clientMsgId: 'c-1' });
    const again = await send(owner, converseId, { content: 'once', clientMsgId: 'c-1' });
    assert.equal(again.status, 201);
    assert.equal(again.body.id, first.body.id);
    const burst = await Promise.all(
      Array.from({ length: 8 }, () => send(owner, converseId, { content: 'burst', clientMsgId: 'c-2' })),
    );
    assert.equal(new Set(burst.map((r) => r.body.id)).size, 1);
    const stored = await history(owner, converseId);
    assert.deepEqual(
      stored.map((m) => [m.seq, m.clientMsgId]),
      [
        [1, 'c-1'],
        [2, 'c-2'],
      ],
    );
    assert.equal(
      events.filter(
        (e) =>
          e.name === 'chat.message.created' &&
          (e.params.message as Message).clientMsgId === 'c-2' &&
          (e.params.message as Message).converseId === converseId,
      ).length,
      1,
    );
    // Retries go out again to sockets only (the node that stored it may have died before announcing it).
    assert.equal(
      events.filter(
        (e) =>
          e.name === 'chat.message.redelivered' &&
          (e.params.message as Message).clientMsgId === 'c-1' &&
          (e.params.message as Message).converseId === converseId,
      ).length,
      1,
    );
  });

  it('keeps outsiders out: send, read, react, ack, search and single message all 404', async () => {
    const { owner, converseId } = await room(0);
    const outsider = await api.user('out');
    const secret = (await send(owner, converseId, { content: 'secret plans' })).body;
    const attempts = [
      await send(outsider, converseId, { content: 'let me in' }),
      await api.request('GET', `/api/converses/${converseId}/messages`, { token: outsider.token }),
      await api.request('GET', `/api/messages/${secret.id}`, { token: outsider.token }),
      await api.request('PUT', `/api/messages/${secret.id}/reactions/${encodeURIComponent('👍')}`, {
        token: outsider.token,
      }),
      await api.request('POST', `/api/converses/${converseId}/ack`, { token: outsider.token, body: { seq: 1 } }),
      await api.request('GET', `/api/search?q=secret&converseId=${converseId}`, { token: outsider.token }),
      await api.request('PATCH', `/api/messages/${secret.id}`, { token: outsider.token, body: { content: 'mine' } }),
      await api.request('DELETE', `/api/messages/${secret.id}`, { token: outsider.token }),
    ];
    for (const res of attempts) {
      assert.equal(res.status, 404);
      assert.equal((res.body as Err).error.code, 'IM_ERR_NOT_FOUND');
    }
    const search = await api.request<Message[]>('GET', '/api/search?q=secret', { token: outsider.token });
    assert.deepEqual(search.body, []);
    assert.equal((await history(owner, converseId)).length, 1);
  });

  it('edits: author only (403 for others), sets editedAt, re-resolves mentions', async () => {
    const { owner, members, converseId } = await room(1);
    const msg = (await send(owner, converseId, { content: 'draft' })).body;
    const denied = await api.request<Err>('PATCH', `/api/messages/${msg.id}`, {
      token: members[0]!.token,
      body: { content: 'hijack' },
    });
    assert.equal(denied.status, 403);
    const edited = await api.request<Message>('PATCH', `/api/messages/${msg.id}`, {
      token: owner.token,
      body: { content: `final @${members[0]!.username}` },
    });
    assert.equal(edited.status, 200);
    assert.equal(edited.body.content, `final @${members[0]!.username}`);
    assert.ok(edited.body.editedAt);
    assert.deepEqual(edited.body.mentions, [members[0]!.id]);
    assert.equal(edited.body.seq, msg.seq);
    assert.ok(events.some((e) => e.name === 'chat.message.updated' && (e.params.message as Message).id === msg.id));
  });

  it('deletes: the author or a group admin, leaving a tombstone that keeps its seq', async () => {
    const { owner, members, converseId } = await room(2);
    const [admin, plain] = members as [User, User];
    await api.request(
      'PUT',
      `/api/groups/${(await api.request<Group[]>('GET', '/api/groups', { token: owner.token })).body.at(-1)!.id}/members/${admin.id}/role`,
      { token: owner.token, body: { role: 'admin' } },
    );
    const m1 = (await send(plain, converseId, { content: 'one' })).body;
    const m2 = (await send(plain, converseId, { content: 'two' })).body;
    const m3 = (await send(owner, converseId, { content: 'three' })).body;
    assert.equal((await api.request('DELETE', `/api/messages/${m3.id}`, { token: plain.token })).status, 403);
    assert.equal((await api.request('DELETE', `/api/messages/${m1.id}`, { token: admin.token })).status, 204);
    assert.equal((await api.request('DELETE', `/api/messages/${m2.id}`, { token: plain.token })).status, 204);
    const page = await history(owner, converseId);
    assert.deepEqual(
      page.map((m) => [m.seq, m.deleted ?? false, m.content]),
      [
        [1, true, ''],
        [2, true, ''],
        [3, false, 'three'],
      ],
    );
    assert.ok(
      events.some((e) => e.name === 'chat.message.deleted' && e.params.messageId === m1.id && e.params.seq === 1),
    );
    const next = (await send(owner, converseId, { content: 'four' })).body;
    assert.equal(next.seq, 4);
  });

  it('counts reactions right under concurrency: one per user per emoji', async () => {
    const { owner, members, converseId } = await room(9);
    const msg = (await send(owner, converseId, { content: 'react to me' })).body;
    const thumbs = encodeURIComponent('👍');
    const everyone = [owner, ...members];
    await Promise.all(
      everyone.flatMap((u) =>
        [0, 1, 2].map(() => api.request('PUT', `/api/messages/${msg.id}/reactions/${thumbs}`, { token: u.token })),
      ),
    );
    const mine = await api.request<Reaction[]>('PUT', `/api/messages/${msg.id}/reactions/${encodeURIComponent('🎉')}`, {
      token: owner.token,
    });
    assert.deepEqual(mine.body, [
      { emoji: '👍', count: 10, me: true },
      { emoji: '🎉', count: 1, me: true },
    ]);
    await Promise.all(
      members
        .slice(0, 4)
        .flatMap((u) =>
          [0, 1].map(() => api.request('DELETE', `/api/messages/${msg.id}/reactions/${thumbs}`, { token: u.token })),
        ),
    );
    const seenByUnreacted = (await api.request<Message>('GET', `/api/messages/${msg.id}`, { token: members[0]!.token }))
      .body;
    assert.deepEqual(seenByUnreacted.reactions, [
      { emoji: '👍', count: 6, me: false },
      { emoji: '🎉', count: 1, me: false },
    ]);
    for (const bad of ['x', 'abc', '12', '%24gt', encodeURIComponent('👍'.repeat(20))]) {
      assert.equal(
        (await api.request('PUT', `/api/messages/${msg.id}/reactions/${bad}`, { token: owner.token })).status,
        400,
        bad,
      );
    }
  });

  it('lists who reacted with an emoji, earliest first, to those who may see the message', async () => {
    const { owner, members, converseId } = await room(3);
    const msg = (await send(owner, converseId, { content: 'who likes this' })).body;
    const heart = encodeURIComponent('❤️');
    for (const u of [members[2]!, owner, members[0]!])
      await api.request('PUT', `/api/messages/${msg.id}/reactions/${heart}`, { token: u.token });
    const who = (q = '') =>
      api.request<Array<{ id: string; username: string }>>('GET', `/api/messages/${msg.id}/reactions/${heart}${q}`, {
        token: members[1]!.token,
      });
    assert.deepEqual(
      (await who()).body.map((u) => u.id),
      [members[2]!.id, owner.id, members[0]!.id],
    );
    assert.deepEqual(
      (await who('?limit=2')).body.map((u) => u.id),
      [members[2]!.id, owner.id],
    );
    const none = await api.request<unknown[]>('GET', `/api/messages/${msg.id}/reactions/${encodeURIComponent('🎉')}`, {
      token: owner.token,
    });
    assert.deepEqual(none.body, []);
    const outsider = await api.user('out');
    const hidden = await api.request('GET', `/api/messages/${msg.id}/reactions/${heart}`, { token: outsider.token });
    assert.equal(hidden.status, 404);
    assert.equal((await api.request('GET', `/api/messages/${msg.id}/reactions/x`, { token: owner.token })).status, 400);
  });

  it('counts unread messages and mentions across three users; acks never move back', async () => {
    const { owner: a, members, converseId } = await room(2);
    const [b, c] = members as [User, User];
    const outsider = await api.user('nobody');
    await send(a, converseId, { content: 'hi all' });
    const m2 = (await send(a, converseId, { content: `hey @${b.username.toUpperCase()} and @${outsider.username}` }))
      .body;
    assert.deepEqual(m2.mentions, [b.id], 'outsiders are not mentioned');
    await send(a, converseId, { content: `@${c.username} @${b.username}` });
    const unreadOf = async (u: User) =>
      (await api.request<UnreadEntry[]>('GET', '/api/unread', { token: u.token })).body.find(
        (e) => e.converseId === converseId,
      );
    // The author's own read position moves just after the batch is stored, not before the send answers.
    const own = await eventually(
      () => unreadOf(a),
      (entry) => entry?.readSeq === 3,
    );
    assert.deepEqual(own, { converseId, lastSeq: 3, readSeq: 3, unread: 0, mentions: 0 });
    assert.deepEqual(await unreadOf(b), { converseId, lastSeq: 3, readSeq: 0, unread: 3, mentions: 2 });
    assert.deepEqual(await unreadOf(c), { converseId, lastSeq: 3, readSeq: 0, unread: 3, mentions: 1 });
    assert.equal(
      (await api.request('POST', `/api/converses/${converseId}/ack`, { token: b.token, body: { seq: 2 } })).status,
      204,
    );
    assert.deepEqual(await unreadOf(b), { converseId, lastSeq: 3, readSeq: 2, unread: 1, mentions: 1 });
    assert.equal(
      (await api.request('POST', `/api/converses/${converseId}/ack`, { token: b.token, body: { seq: 1 } })).status,
      204,
    );
    assert.equal((await unreadOf(b))!.readSeq, 2, 'an ack backwards is ignored');
    await api.request('POST', `/api/converses/${converseId}/ack`, { token: b.token, body: { seq: 999 } });
    assert.deepEqual(await unreadOf(b), { converseId, lastSeq: 3, readSeq: 3, unread: 0, mentions: 0 });
    const reads = events.filter(
      (e) => e.name === 'chat.converse.read' && e.params.userId === b.id && e.params.converseId === converseId,
    );
    assert.deepEqual(
      reads.map((e) => e.params.readSeq),
      [2, 3],
    );
  });

  it('pages history by seq: newest page, before, after, and between the two', async () => {
    const { owner, converseId } = await room(0);
    for (let i = 1; i <= 12; i += 1) await send(owner, converseId, { content: `n${i}` });
    const seqs = (q: string) => history(owner, converseId, q).then((page) => page.map((m) => m.seq));
    assert.deepEqual(await seqs('?limit=5'), [8, 9, 10, 11, 12]);
    assert.deepEqual(await seqs('?before=8&limit=3'), [5, 6, 7]);
    assert.deepEqual(await seqs('?after=10&limit=5'), [11, 12]);
    assert.deepEqual(await seqs('?before=1'), []);
    // Both: the messages strictly between, from the lower end, at most `limit`.
    assert.deepEqual(await seqs('?after=3&before=9'), [4, 5, 6, 7, 8]);
    assert.deepEqual(await seqs('?after=3&before=9&limit=2'), [4, 5]);
    assert.deepEqual(await seqs('?after=5&before=6'), []);
    assert.deepEqual(await seqs('?after=9&before=3'), []);
    assert.equal(
      (await api.request('GET', `/api/converses/${converseId}/messages?before=-1`, { token: owner.token })).status,
      400,
    );
  });

  it('replies only within the same converse', async () => {
    const r1 = await room(0);
    const r2 = await room(0);
    const parent = (await send(r1.owner, r1.converseId, { content: 'parent' })).body;
    const reply = await send(r1.owner, r1.converseId, { content: 'child', replyTo: parent.id });
    assert.equal(reply.body.replyTo, parent.id);
    const elsewhere = await send(r2.owner, r2.converseId, { content: 'cross', replyTo: parent.id });
    // A message of another converse is not one this converse knows.
    assert.equal(elsewhere.status, 404);
  });

  it('DMs: the same converse both ways, only for its two members, events name them', async () => {
    const a = await api.user('dma');
    const b = await api.user('dmb');
    const c = await api.user('dmc');
    const ab = (await api.request<DmConverse>('POST', '/api/dms', { token: a.token, body: { userId: b.id } })).body;
    const ba = (await api.request<DmConverse>('POST', '/api/dms', { token: b.token, body: { userId: a.id } })).body;
    assert.equal(ab.id, ba.id);
    assert.deepEqual(ab.memberIds, [a.id, b.id].sort());
    const racing = await Promise.all(
      Array.from({ length: 5 }, () =>
        api.request<DmConverse>('POST', '/api/dms', { token: a.token, body: { userId: c.id } }),
      ),
    );
    assert.equal(new Set(racing.map((r) => r.body.id)).size, 1);
    const msg = (await send(a, ab.id, { content: `psst @${b.username}` })).body;
    assert.deepEqual(msg.mentions, [b.id]);
    assert.deepEqual(
      (await history(b, ab.id)).map((m) => m.id),
      [msg.id],
    );
    assert.equal((await api.request('GET', `/api/converses/${ab.id}/messages`, { token: c.token })).status, 404);
    assert.equal((await send(c, ab.id, { content: 'me too' })).status, 404);
    const ev = events.find((e) => e.name === 'chat.message.created' && (e.params.message as Message).id === msg.id);
    assert.equal(ev?.params.kind, 'dm');
    assert.deepEqual(ev?.params.memberIds, [a.id, b.id].sort());
    assert.equal((await api.request('POST', '/api/dms', { token: a.token, body: { userId: a.id } })).status, 403);
    assert.equal(
      (await api.request('POST', '/api/dms', { token: a.token, body: { userId: '0123456789abcdef01234567' } })).status,
      404,
    );
    const unread = (await api.request<UnreadEntry[]>('GET', '/api/unread', { token: b.token })).body;
    assert.deepEqual(
      unread.find((e) => e.converseId === ab.id),
      { converseId: ab.id, lastSeq: 1, readSeq: 0, unread: 1, mentions: 1 },
    );
  });

  it('searches only what the caller may see, literally and case-insensitively', async () => {
    const mine = await room(0);
    const theirs = await room(0);
    await send(mine.owner, mine.converseId, { content: 'Quarterly REPORT draft' });
    await send(mine.owner, mine.converseId, { content: 'a+b (report)' });
    await send(theirs.owner, theirs.converseId, { content: 'report from elsewhere' });
    const found = (await api.request<Message[]>('GET', '/api/search?q=report', { token: mine.owner.token })).body;
    assert.deepEqual(
      found.map((m) => m.content),
      ['a+b (report)', 'Quarterly REPORT draft'],
    );
    const literal = (
      await api.request<Message[]>('GET', `/api/search?q=${encodeURIComponent('a+b (')}`, { token: mine.owner.token })
    ).body;
    assert.deepEqual(
      literal.map((m) => m.content),
      ['a+b (report)'],
    );
    assert.deepEqual((await api.request<Message[]>('GET', '/api/search?q=.*', { token: mine.owner.token })).body, []);
  });

  it('refuses attachments that are not my files, and blank or oversized content', async () => {
    const { owner, converseId } = await room(0);
    // A file that is not mine is as unknown as a missing one.
    assert.equal(
      (await send(owner, converseId, { content: 'x', attachments: ['0123456789abcdef01234567'] })).status,
      404,
    );
    for (const body of [{ content: '   ' }, { content: '' }, { content: 'x'.repeat(4001) }]) {
      assert.equal((await send(owner, converseId, body)).status, 400, JSON.stringify(body).slice(0, 60));
    }
    assert.equal((await send(owner, converseId, { content: 'x'.repeat(4000) })).status, 201);
    assert.equal((await history(owner, converseId)).length, 1);
  });
});
