import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { AuditPage, Message, Submessage } from '@im/protocol';
import mongoose, { Types } from 'mongoose';
import { connectClient, pause, record, sync, until } from '../realtime/client.ts';
import { apiSuite, type ApiUser as User } from '../support/api-suite.ts';
import { groupWithMembers } from './harness.ts';

/** Polls and submessages (shared/API.md, "Notifications and personal organisation"). */
describe('polls', () => {
  const { api, ok, refused } = apiSuite(import.meta.url, { ADMIN_USERNAMES: 'pollroot' });
  let root: User;

  before(async () => {
    const res = await api.request<{ token: string; user: { id: string } }>('POST', '/api/auth/register', {
      body: { username: 'pollroot', password: 'correct horse battery' },
    });
    root = { token: res.body.token, id: res.body.user.id, username: 'pollroot' };
  });

  const sendPoll = (user: User, converseId: string, poll: Record<string, unknown>) =>
    ok<Message>('POST', `/api/converses/${converseId}/messages`, user, { poll }, 201);
  const vote = (user: User, id: string, options: number[]) =>
    ok<Message>('PUT', `/api/messages/${id}/poll/votes`, user, { options });
  const counts = (m: Message) => m.poll!.options.map((o) => o.votes);

  it('a poll is sent with or without content; its text is the question; bad polls get 400', async () => {
    const { owner, converseId } = await groupWithMembers(api, 0);
    const path = `/api/converses/${converseId}/messages`;
    const bad: Array<Record<string, unknown>> = [
      { question: 'Q?', options: ['only one'] },
      { question: 'Q?', options: Array.from({ length: 11 }, (_, i) => `o${i}`) },
      { question: 'Q?', options: ['Same', ' same '] },
      { question: 'Q?', options: ['a', '   '] },
      { question: '  ', options: ['a', 'b'] },
      { question: 'Q?', options: ['a', 'b'], closesAt: new Date(Date.now() - 60_000).toISOString() },
      { question: 'Q?', options: ['a', 'b'], closesAt: 'tomorrow' },
      { question: 'Q?', options: ['a', 'b'], extra: true },
    ];
    for (const poll of bad) await refused('POST', path, owner, 400, 'IM_ERR_VALIDATION', { poll });
    // Neither content nor a poll.
    await refused('POST', path, owner, 400, 'IM_ERR_VALIDATION', {});

    const closesAt = new Date(Date.now() + 3_600_000).toISOString();
    const m = await sendPoll(owner, converseId, { question: ' Lunch? ', options: ['Pizza', 'Sushi'], closesAt });
    assert.equal(m.content, 'Lunch?');
    assert.deepEqual(m.poll, {
      question: 'Lunch?',
      options: [
        { text: 'Pizza', votes: 0, voterIds: [] },
        { text: 'Sushi', votes: 0, voterIds: [] },
      ],
      multiple: false,
      anonymous: false,
      closesAt,
      closed: false,
      myVotes: [],
    });
    const withContent = await ok<Message>(
      'POST',
      path,
      owner,
      { content: 'ignored', poll: { question: 'Tea?', options: ['yes', 'no'] } },
      201,
    );
    assert.equal(withContent.content, 'Tea?');
    // Its text is its question: not edited under the votes.
    await refused('PATCH', `/api/messages/${m.id}`, owner, 409, 'IM_ERR_CONFLICT', { content: 'Dinner?' });
    // Search finds the question.
    const found = await ok<Message[]>('GET', `/api/search?q=${encodeURIComponent('lunch')}`, owner);
    assert.deepEqual(
      found.map((f) => f.id),
      [m.id],
    );
  });

  it('votes: single choice, replace, withdraw, multiple; my votes are my own', async () => {
    const { owner, members, converseId } = await groupWithMembers(api, 1);
    const [bob] = members as [User];
    const m = await sendPoll(owner, converseId, { question: 'Pick', options: ['a', 'b', 'c'] });
    const path = `/api/messages/${m.id}/poll/votes`;
    await refused('PUT', path, bob, 400, 'IM_ERR_VALIDATION', { options: [0, 1] });
    await refused('PUT', path, bob, 400, 'IM_ERR_VALIDATION', { options: [3] });
    await refused('PUT', path, bob, 400, 'IM_ERR_VALIDATION', { options: [-1] });
    await refused('PUT', path, bob, 400, 'IM_ERR_VALIDATION', { options: 'a' });

    let answer = await vote(bob, m.id, [0]);
    assert.deepEqual(counts(answer), [1, 0, 0]);
    assert.deepEqual(answer.poll!.myVotes, [0]);
    assert.deepEqual(answer.poll!.options[0]!.voterIds, [bob.id]);
    answer = await vote(owner, m.id, [0]);
    assert.deepEqual(counts(answer), [2, 0, 0]);
    // Bob changes his mind: his vote is replaced, not added.
    answer = await vote(bob, m.id, [2]);
    assert.deepEqual(counts(answer), [1, 0, 1]);
    assert.deepEqual(answer.poll!.myVotes, [2]);
    assert.deepEqual(answer.poll!.options[2]!.voterIds, [bob.id]);
    assert.deepEqual(answer.poll!.options[0]!.voterIds, [owner.id]);
    // Each reader sees their own votes in history and on the message.
    const [mine] = (await ok<Message[]>('GET', `/api/converses/${converseId}/messages`, owner)).filter(
      (x) => x.id === m.id,
    );
    assert.deepEqual(mine!.poll!.myVotes, [0]);
    assert.deepEqual((await ok<Message>('GET', `/api/messages/${m.id}`, bob)).poll!.myVotes, [2]);
    // An empty list withdraws.
    answer = await vote(bob, m.id, []);
    assert.deepEqual(counts(answer), [1, 0, 0]);
    assert.deepEqual(answer.poll!.myVotes, []);
    assert.deepEqual(answer.poll!.options[2]!.voterIds, []);

    const multi = await sendPoll(owner, converseId, {
      question: 'Which days?',
      options: ['Mon', 'Tue', 'Wed'],
      multiple: true,
    });
    answer = await vote(bob, multi.id, [2, 0]);
    assert.deepEqual(counts(answer), [1, 0, 1]);
    assert.deepEqual(answer.poll!.myVotes, [0, 2]);
    answer = await vote(bob, multi.id, [1, 2]);
    assert.deepEqual(counts(answer), [0, 1, 1]);
    await refused('PUT', `/api/messages/${multi.id}/poll/votes`, bob, 400, 'IM_ERR_VALIDATION', { options: [1, 1] });
  });

  it('concurrent votes of many members add up', async () => {
    const { owner, members, converseId } = await groupWithMembers(api, 6);
    const m = await sendPoll(owner, converseId, { question: 'Race', options: ['x', 'y'] });
    await Promise.all(members.map((u, i) => vote(u, m.id, [i % 2])));
    await Promise.all(members.map((u) => vote(u, m.id, [1])));
    const now = await ok<Message>('GET', `/api/messages/${m.id}`, owner);
    assert.deepEqual(counts(now), [0, 6]);
    assert.equal(now.poll!.options[1]!.voterIds!.length, 6);
  });

  it("a vote reaches another socket live as message:updated, with no one's votes in it", async () => {
    const { owner, members, converseId } = await groupWithMembers(api, 1);
    const [bob] = members as [User];
    const m = await sendPoll(owner, converseId, { question: 'Live?', options: ['yes', 'no'] });
    const socket = await connectClient(api.base, owner.token);
    try {
      const updates = record(socket, 'message:updated');
      await vote(bob, m.id, [1]);
      await until('the vote to be announced', () =>
        updates.some((u) => u.id === m.id && u.poll?.options[1]?.votes === 1),
      );
      const seen = updates.find((u) => u.id === m.id)!;
      assert.deepEqual(seen.poll!.myVotes, []);
      assert.deepEqual(seen.poll!.options[1]!.voterIds, [bob.id]);
      // Sync computes the reader's own votes.
      const missed = await sync(socket, { [converseId]: m.seq - 1 });
      const synced = missed.converses[converseId]!.messages.find((x) => x.id === m.id)!;
      assert.deepEqual(synced.poll!.myVotes, []);
    } finally {
      socket.disconnect();
    }
    const bobSocket = await connectClient(api.base, bob.token);
    try {
      const missed = await sync(bobSocket, { [converseId]: m.seq - 1 });
      assert.deepEqual(missed.converses[converseId]!.messages.find((x) => x.id === m.id)!.poll!.myVotes, [1]);
    } finally {
      bobSocket.disconnect();
    }
  });

  it('an anonymous poll never names its voters: not in answers, events, sync, search nor the audit log', async () => {
    const { owner, members, converseId, groupId } = await groupWithMembers(api, 2);
    const [bob, carol] = members as [User, User];
    const m = await sendPoll(owner, converseId, {
      question: 'Secret ballot',
      options: ['for', 'against'],
      anonymous: true,
    });
    assert.equal(m.poll!.anonymous, true);
    const socket = await connectClient(api.base, owner.token);
    const seen: string[] = [];
    try {
      const updates = record(socket, 'message:updated');
      seen.push(JSON.stringify(await vote(bob, m.id, [0])));
      seen.push(JSON.stringify(await vote(carol, m.id, [1])));
      seen.push(JSON.stringify(await vote(bob, m.id, [1])));
      await until('the votes to be announced', () => updates.filter((u) => u.id === m.id).length >= 3);
      seen.push(JSON.stringify(updates));
      seen.push(JSON.stringify(await sync(socket, { [converseId]: m.seq - 1 })));
    } finally {
      socket.disconnect();
    }
    const now = await ok<Message>('GET', `/api/messages/${m.id}`, owner);
    assert.deepEqual(counts(now), [0, 2]);
    // Bob still finds his own vote (and replaced it above rather than adding one).
    assert.deepEqual((await ok<Message>('GET', `/api/messages/${m.id}`, bob)).poll!.myVotes, [1]);
    for (const who of [owner, bob, carol, root]) {
      const res = await api.request('GET', `/api/messages/${m.id}`, { token: who.token });
      seen.push(JSON.stringify(res.body));
      seen.push(
        JSON.stringify((await api.request('GET', `/api/converses/${converseId}/messages`, { token: who.token })).body),
      );
      seen.push(JSON.stringify((await api.request('GET', `/api/search?q=ballot`, { token: who.token })).body));
    }
    seen.push(JSON.stringify(await ok<AuditPage>('GET', '/api/admin/audit?limit=100', root)));
    seen.push(JSON.stringify(await ok<AuditPage>('GET', `/api/groups/${groupId}/audit?limit=100`, owner)));
    for (const text of seen) {
      assert.ok(!text.includes('voterIds'), text);
      assert.ok(!text.includes(bob.id) && !text.includes(carol.id), text);
    }
    // Nor does the database: two votes, keyed so that neither names its voter.
    const db = await mongoose.createConnection(api.env.mongoUrl).asPromise();
    try {
      const votes = await db
        .collection('pollvotes')
        .find({ messageId: new Types.ObjectId(m.id) })
        .toArray();
      assert.equal(votes.length, 2);
      const stored = JSON.stringify([
        votes,
        await db.collection('messages').findOne({ _id: new Types.ObjectId(m.id) }),
      ]);
      assert.ok(!stored.includes(bob.id) && !stored.includes(carol.id), stored);
    } finally {
      await db.close();
    }
  });

  it('a closed poll refuses votes (409): closed by its author, or when its time passed', async () => {
    const { owner, members, converseId } = await groupWithMembers(api, 1);
    const [bob] = members as [User];
    const m = await sendPoll(owner, converseId, { question: 'Close me', options: ['a', 'b'] });
    await vote(bob, m.id, [0]);
    await refused('POST', `/api/messages/${m.id}/poll/close`, bob, 403, 'IM_ERR_FORBIDDEN');
    const socket = await connectClient(api.base, bob.token);
    try {
      const updates = record(socket, 'message:updated');
      const closed = await ok<Message>('POST', `/api/messages/${m.id}/poll/close`, owner);
      assert.equal(closed.poll!.closed, true);
      await until('the close to be announced', () => updates.some((u) => u.id === m.id && u.poll?.closed));
    } finally {
      socket.disconnect();
    }
    await refused('PUT', `/api/messages/${m.id}/poll/votes`, bob, 409, 'IM_ERR_CONFLICT', { options: [1] });
    const kept = await ok<Message>('GET', `/api/messages/${m.id}`, bob);
    assert.deepEqual(counts(kept), [1, 0]);
    assert.deepEqual(kept.poll!.myVotes, [0]);

    const closesAt = new Date(Date.now() + 1_000).toISOString();
    const timed = await sendPoll(owner, converseId, { question: 'Quick', options: ['a', 'b'], closesAt });
    assert.equal(timed.poll!.closed, false);
    // Closed is decided when read: ask until the server says so (bounded), then vote.
    let closedNow = false;
    for (let i = 0; i < 100 && !closedNow; i += 1) {
      closedNow = (await ok<Message>('GET', `/api/messages/${timed.id}`, bob)).poll!.closed;
      if (!closedNow) await pause(50);
    }
    assert.ok(closedNow, 'the poll closed at its time');
    await refused('PUT', `/api/messages/${timed.id}/poll/votes`, bob, 409, 'IM_ERR_CONFLICT', { options: [0] });
  });

  it('only those who read the converse vote (404); muted members get 403; a message without a poll is 404', async () => {
    const { owner, members, converseId, groupId } = await groupWithMembers(api, 1);
    const [bob] = members as [User];
    const outsider = await api.user('out');
    const m = await sendPoll(owner, converseId, { question: 'Members only', options: ['a', 'b'] });
    await refused('PUT', `/api/messages/${m.id}/poll/votes`, outsider, 404, 'IM_ERR_NOT_FOUND', { options: [0] });
    await refused('POST', `/api/messages/${m.id}/poll/close`, outsider, 404, 'IM_ERR_NOT_FOUND');
    const plain = await ok<Message>('POST', `/api/converses/${converseId}/messages`, owner, { content: 'hi' }, 201);
    await refused('PUT', `/api/messages/${plain.id}/poll/votes`, bob, 404, 'IM_ERR_NOT_FOUND', { options: [0] });
    await ok('PUT', `/api/groups/${groupId}/members/${bob.id}/mute`, owner, { seconds: 600 }, 204);
    await refused('PUT', `/api/messages/${m.id}/poll/votes`, bob, 403, 'IM_ERR_MUTED', { options: [0] });
  });

  it('submessages: stored, relayed to the converse as message:submessage, listed in order', async () => {
    const { owner, members, converseId } = await groupWithMembers(api, 1);
    const [bob] = members as [User];
    const outsider = await api.user('out');
    const m = await ok<Message>('POST', `/api/converses/${converseId}/messages`, owner, { content: 'todo' }, 201);
    const path = `/api/messages/${m.id}/submessages`;
    await refused('POST', path, bob, 400, 'IM_ERR_VALIDATION', { content: 'not json' });
    await refused('POST', path, bob, 400, 'IM_ERR_VALIDATION', { content: '[1,2]' });
    await refused('POST', path, bob, 400, 'IM_ERR_VALIDATION', { content: `{"x":"${'y'.repeat(5000)}"}` });
    await refused('POST', path, outsider, 404, 'IM_ERR_NOT_FOUND', { content: '{"type":"add"}' });
    await refused('GET', path, outsider, 404, 'IM_ERR_NOT_FOUND');
    const socket = await connectClient(api.base, owner.token);
    try {
      const relayed = record(socket, 'message:submessage');
      const first = await ok<Submessage>('POST', path, bob, { content: '{"type":"add","text":"milk"}' }, 201);
      assert.equal(first.senderId, bob.id);
      assert.equal(first.messageId, m.id);
      assert.equal(first.converseId, converseId);
      await ok<Submessage>('POST', path, owner, { content: '{"type":"done","index":0}' }, 201);
      await until('both to be relayed', () => relayed.length >= 2);
      assert.deepEqual(relayed[0], first);
    } finally {
      socket.disconnect();
    }
    const listed = await ok<Submessage[]>('GET', path, bob);
    assert.deepEqual(
      listed.map((s) => JSON.parse(s.content) as { type: string }),
      [
        { type: 'add', text: 'milk' },
        { type: 'done', index: 0 },
      ],
    );
    // They go with their message.
    await ok('DELETE', `/api/messages/${m.id}`, owner, undefined, 204);
    assert.deepEqual(await ok<Submessage[]>('GET', path, bob), []);
  });
});
