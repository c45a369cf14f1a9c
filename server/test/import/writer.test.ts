import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import type { Group, Message, ThreadSummary } from '@im/protocol';
import { announceImport, mentionToken, runImport, type ImportOutcome } from '@im/service-import';
import { apiWithSockets } from '../api/harness.ts';
import { connectClient, record, until } from '../realtime/client.ts';
import { arraySource, message } from './array-source.ts';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  'base64',
);

/**
 * The writer on its own, through a source held in arrays: what every reader
 * relies on (numbering in time order, threads, reactions, pins, mentions,
 * files, private panels, DMs, accounts matched or made, a second run adding
 * nothing, the running platform told).
 */
describe('import writer', () => {
  const { api, sockets } = apiWithSockets(import.meta.url);

  const exportFor = (bob: string) =>
    arraySource({
      groups: [{ key: 'T1', name: 'Acme', description: 'Imported from Slack' }],
      users: [
        { key: 'UA', username: 'alice.imported', displayName: 'Alice', email: 'alice@example.test' },
        { key: 'UB', username: bob.toUpperCase(), displayName: 'Bob' },
        { key: 'UG', username: 'gone', deleted: true },
      ],
      channels: [
        { key: 'C1', groupKey: 'T1', kind: 'public', name: 'general', topic: 'Everything', memberKeys: ['UA', 'UB'] },
        { key: 'C2', groupKey: 'T1', kind: 'private', name: 'secret', memberKeys: ['UA'] },
        { key: 'D1', kind: 'dm', name: '', memberKeys: ['UA', 'UB'] },
        { key: 'D2', kind: 'dm', name: '', memberKeys: ['UA', 'UA'] },
      ],
      messages: [
        // Out of time order on purpose: numbering follows time.
        message({ key: 'C1:3', channelKey: 'C1', authorKey: 'UB', text: 'third :rocket:', at: '2024-01-01T10:03:00Z' }),
        message({
          key: 'C1:1',
          channelKey: 'C1',
          authorKey: 'UA',
          text: `hello ${mentionToken('UB')}`,
          at: '2024-01-01T10:01:00Z',
          pinned: true,
          reactions: [
            { emoji: 'thumbsup', userKeys: ['UA', 'UB'] },
            { emoji: '🎉', userKeys: ['UB'] },
            { emoji: 'no_such_emoji_anywhere', userKeys: ['UA'] },
          ],
        }),
        message({
          key: 'C1:2r',
          channelKey: 'C1',
          authorKey: 'UB',
          text: 'reply one',
          at: '2024-01-01T10:02:00Z',
          threadRootKey: 'C1:1',
        }),
        message({
          key: 'C1:4r',
          channelKey: 'C1',
          authorKey: 'UX',
          text: 'reply by someone unknown',
          at: '2024-01-01T10:04:00Z',
          threadRootKey: 'C1:1',
        }),
        message({
          key: 'C1:5',
          channelKey: 'C1',
          authorKey: 'UG',
          text: 'answering',
          at: '2024-01-01T10:05:00Z',
          replyToKey: 'C1:3',
          editedAt: new Date('2024-01-01T10:06:00Z'),
        }),
        message({
          key: 'C1:6',
          channelKey: 'C1',
          authorKey: 'UA',
          text: '',
          at: '2024-01-01T10:07:00Z',
          files: [
            { key: 'F1', name: 'dot.png', open: async () => Readable.from([PNG]) },
            { key: 'F2', name: 'lost.pdf', open: async () => undefined },
          ],
        }),
        message({
          key: 'C1:7',
          channelKey: 'C1',
          authorKey: 'UA',
          text: 'orphan reply',
          at: '2024-01-01T10:08:00Z',
          threadRootKey: 'C1:missing',
        }),
        message({ key: 'C1:8', channelKey: 'C1', authorKey: 'UA', text: '   ', at: '2024-01-01T10:09:00Z' }),
        message({
          key: 'C2:1',
          channelKey: 'C2',
          authorKey: 'UA',
          text: 'just me',
          at: '2023-12-31T09:00:00Z',
          reactions: [{ emoji: 'partyparrot', userKeys: ['UA'] }],
        }),
        message({ key: 'D1:1', channelKey: 'D1', authorKey: 'UB', text: 'psst', at: '2023-06-01T00:00:00Z' }),
        message({ key: 'D2:1', channelKey: 'D2', authorKey: 'UA', text: 'note to self', at: '2023-06-01T00:00:00Z' }),
        message({ key: 'X:1', channelKey: 'nowhere', authorKey: 'UA', text: 'lost', at: '2023-06-01T00:00:00Z' }),
      ],
      emoji: [{ name: 'partyparrot', bytes: PNG }, { name: 'noimage' }],
    });

  it('imports an export, reads back through the API, and a second run adds nothing', async () => {
    const owner = await api.user('own');
    const bob = await api.user('bob');
    const ownerSocket = await connectClient(api.base, owner.token);
    sockets.push(ownerSocket);
    const joined = record(ownerSocket, 'member:joined');
    const db = api.node.app.mongo!.db!;
    const storage = api.node.app.storage!;
    const first: ImportOutcome = await runImport(db, storage, exportFor(bob.username), { owner: owner.username });
    assert.deepEqual(first.summary, {
      groups: 1,
      panels: 2,
      users: 3, // alice, gone, and the unknown author (bob matched by username)
      messages: 9,
      replies: 2,
      reactions: 4,
      files: 2, // dot.png and the custom emoji's image
      skipped: first.summary.skipped,
    });
    assert.equal(first.skippedReasons['file missing from the export'], 1);
    assert.equal(first.skippedReasons['reaction with an emoji that has no Unicode equivalent or image'], 1);
    assert.equal(first.skippedReasons['empty message'], 1);
    assert.equal(first.skippedReasons['custom emoji whose image is not in the export'], 1);
    assert.ok(first.skippedReasons['message in a channel the export does not list (or a DM with one person)']! >= 1);

    await announceImport(api.broker, first);
    await until('the owner is told of the new group', () => joined.some((j) => j.userId === owner.id));

    const groups = (await api.request<Group[]>('GET', '/api/groups', { token: owner.token })).body;
    const acme = groups.find((g) => g.name === 'Acme')!;
    assert.ok(acme, 'the owner sees the group');
    assert.equal(acme.ownerId, owner.id);
    assert.equal(acme.description, 'Imported from Slack');
    const general = acme.panels.find((p) => p.name === 'general')!;
    const secret = acme.panels.find((p) => p.name === 'secret')!;
    assert.equal(general.topic, 'Everything');
    assert.equal(secret.private, true);

    const history = (
      await api.request<Message[]>('GET', `/api/converses/${general.converseId}/messages?limit=50`, {
        token: owner.token,
      })
    ).body;
    const bySeq = [...history].sort((a, b) => a.seq - b.seq);
    assert.deepEqual(
      bySeq.map((m) => [m.seq, m.content.slice(0, 12)]),
      [
        [1, `hello @${bob.username}`.slice(0, 12)],
        [2, 'reply one'],
        [3, 'third 🚀'],
        [4, 'reply by som'],
        [5, 'answering'],
        [6, ''],
        [7, 'orphan reply'],
      ],
    );
    const [hello, reply, third, , answering, file, orphan] = bySeq;
    assert.equal(hello!.createdAt, '2024-01-01T10:01:00.000Z');
    assert.deepEqual(hello!.mentions, [bob.id]);
    assert.equal(hello!.authorId !== owner.id, true);
    assert.equal(hello!.pinned !== undefined, true);
    assert.deepEqual(
      hello!.reactions.map((r) => [r.emoji, r.count]).sort(),
      [
        ['🎉', 1],
        ['👍', 2],
      ].sort(),
    );
    assert.equal((hello!.thread as ThreadSummary).replyCount, 2);
    assert.equal(reply!.threadId, hello!.id);
    assert.equal(reply!.authorId, bob.id, 'bob is matched by username, case-insensitive');
    assert.equal(third!.content, 'third 🚀');
    assert.equal(answering!.replyTo, third!.id);
    assert.equal(answering!.editedAt, '2024-01-01T10:06:00.000Z');
    assert.equal(file!.attachments.length, 1, 'the file present is kept, the missing one not');
    assert.equal(orphan!.threadId, undefined, 'a reply whose root is not in the export is a plain message');
    const download = await fetch(`${api.base}/api/files/${file!.attachments[0]}`, {
      headers: { authorization: `Bearer ${owner.token}` },
    });
    assert.equal(download.status, 200);
    assert.deepEqual(Buffer.from(await download.arrayBuffer()), PNG);

    // The private panel: its member and the owner read it; bob does not.
    const secretAsBob = await api.request('GET', `/api/converses/${secret.converseId}/messages`, { token: bob.token });
    assert.equal(secretAsBob.status, 404);
    const secretMessages = (
      await api.request<Message[]>('GET', `/api/converses/${secret.converseId}/messages`, { token: owner.token })
    ).body;
    assert.deepEqual(
      secretMessages.map((m) => [m.content, m.reactions.map((r) => r.emoji)]),
      [['just me', [':partyparrot:']]],
    );

    // The DM between alice (imported) and bob, and nothing for the one-person DM.
    const dms = (await api.request<Array<{ id: string; memberIds: string[] }>>('GET', '/api/dms', { token: bob.token }))
      .body;
    assert.equal(dms.length, 1);
    const dm = (await api.request<Message[]>('GET', `/api/converses/${dms[0]!.id}/messages`, { token: bob.token }))
      .body;
    assert.deepEqual(
      dm.map((m) => [m.seq, m.content, m.authorId]),
      [[1, 'psst', bob.id]],
    );

    // Nothing imported is unread: history, not news.
    const unread = await api.request<Record<string, { unread: number }>>('GET', '/api/converses/unread', {
      token: bob.token,
    });
    if (unread.status === 200) {
      for (const [id, u] of Object.entries(unread.body)) assert.equal(u.unread ?? 0, 0, `unread in ${id}`);
    }

    const second = await runImport(db, storage, exportFor(bob.username), { owner: owner.username });
    assert.deepEqual(
      { ...second.summary, skipped: 0 },
      { groups: 0, panels: 0, users: 0, messages: 0, replies: 0, reactions: 0, files: 0, skipped: 0 },
    );
    assert.ok(second.summary.skipped >= 9, 'the second run counts what it found');
    assert.equal(second.skippedReasons['already imported'], 9);
    const again = (
      await api.request<Message[]>('GET', `/api/converses/${general.converseId}/messages?limit=50`, {
        token: owner.token,
      })
    ).body;
    assert.equal(again.length, history.length);
  });

  it('a finished command-line import is taken in by the running platform: room index, caches and open apps', async () => {
    const owner = await api.user('cli');
    const socket = await connectClient(api.base, owner.token);
    sockets.push(socket);
    const joined = record(socket, 'member:joined');
    const db = api.node.app.mongo!.db!;
    const source = arraySource(
      {
        groups: [{ key: 'T9', name: 'From the command line' }],
        users: [{ key: 'U1', username: 'someone.else' }],
        channels: [{ key: 'C9', groupKey: 'T9', kind: 'public', name: 'general', memberKeys: ['U1'] }],
        messages: [message({ key: 'C9:1', channelKey: 'C9', authorKey: 'U1', text: 'hi', at: '2024-02-01T00:00:00Z' })],
      },
      'cli-origin',
    );
    const outcome = await runImport(db, api.node.app.storage!, source, { owner: owner.username });
    // What `npm run import` leaves when it is done, in another process.
    const now = new Date();
    const job = await db.collection('imports').insertOne({
      kind: 'slack',
      fileName: 'export.zip',
      ownerId: outcome.groupIds[0], // any id: only the announcement is read here
      status: 'done',
      phase: 'done',
      messages: 1,
      groupIds: outcome.groupIds,
      dmConverseIds: [],
      announce: 'pending',
      startedAt: now,
      updatedAt: now,
    });
    await until('the owner is told of the new group', () => joined.some((j) => j.userId === owner.id), 10_000);
    const groups = (await api.request<Group[]>('GET', '/api/groups', { token: owner.token })).body;
    const imported = groups.find((g) => g.name === 'From the command line')!;
    // The socket is in the new panel's room at once: a message sent there now reaches it.
    const arrivals = record(socket, 'message:new');
    const sent = await api.request<Message>('POST', `/api/converses/${imported.panels[0]!.converseId}/messages`, {
      token: owner.token,
      body: { content: 'after the import' },
    });
    assert.equal(sent.status, 201);
    assert.equal(sent.body.seq, 2, 'numbering goes on after the imported history');
    await until('the new message arrives on the open socket', () => arrivals.some((m) => m.id === sent.body.id));
    const stored = await db.collection('imports').findOne({ _id: job.insertedId });
    assert.equal(stored?.announce, 'done');
  });
});
