import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { Group, Message, PublicUser, ThreadSummary } from '@im/protocol';
import { announceImport, openSource, runImport, type ImportOutcome } from '@im/service-import';
import { apiWithSockets } from '../api/harness.ts';
import { connectClient, record, until } from '../realtime/client.ts';

const FIXTURE = fileURLToPath(new URL('../../../services/import/test/fixtures/discord/', import.meta.url));
const SEEDLINGS = `${FIXTURE}Garden Club - Text Channels - general [700000000000000001].json_Files/seedlings-8c2d1e0f3a4b5c6d.png`;

/**
 * The test export of a Discord server (services/import/test/fixtures/discord)
 * imported into a running single instance and read back through the API.
 */
describe('Discord import', () => {
  const { api, sockets } = apiWithSockets(import.meta.url);

  async function register(username: string): Promise<{ token: string; id: string }> {
    const res = await api.request<{ token: string; user: { id: string } }>('POST', '/api/auth/register', {
      body: { username, password: 'correct horse battery' },
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return { token: res.body.token, id: res.body.user.id };
  }

  async function importFixture(owner: string): Promise<ImportOutcome> {
    const source = await openSource('discord', FIXTURE);
    try {
      return await runImport(api.node.app.mongo!.db!, api.node.app.storage!, source, { owner });
    } finally {
      await source.close();
    }
  }

  it('imports the server, its channels, threads, replies, reactions, pins, mentions, files and DMs; again adds nothing', async () => {
    const owner = await register('gardener');
    // bob has an account here already: the import matches him by username.
    const bob = await register('bob');
    const ownerSocket = await connectClient(api.base, owner.token);
    sockets.push(ownerSocket);
    const joined = record(ownerSocket, 'member:joined');

    const first = await importFixture('gardener');
    assert.deepEqual(first.summary, {
      groups: 1,
      panels: 2,
      users: 4, // alice, carol, the bot and the deleted user (bob matched)
      messages: 10,
      replies: 2,
      reactions: 3, // 👍 twice and :seedparty: (its image is in the export)
      files: 2, // seedlings.png and the :seedparty: emoji's image
      skipped: first.summary.skipped,
    });
    assert.equal(first.skippedReasons['system message'], 5);
    assert.equal(first.skippedReasons['file only linked, its media not exported'], 1);
    assert.equal(first.skippedReasons['file missing from the export'], 1);
    assert.equal(first.skippedReasons['reaction without the people who reacted'], 1);

    await announceImport(api.broker, first);
    await until('the owner is told of the new group', () => joined.some((j) => j.userId === owner.id));

    const groups = (await api.request<Group[]>('GET', '/api/groups', { token: owner.token })).body;
    const garden = groups.find((g) => g.name === 'Garden Club');
    assert.ok(garden, 'the owner sees the server as a group');
    assert.equal(garden.ownerId, owner.id);
    assert.deepEqual(garden.panels.map((p) => p.name).sort(), ['general', 'plans']);
    const general = garden.panels.find((p) => p.name === 'general')!;
    const plans = garden.panels.find((p) => p.name === 'plans')!;
    assert.equal(general.topic, 'Everything about the garden');

    const history = async (converseId: string, token = owner.token): Promise<Message[]> => {
      const res = await api.request<Message[]>('GET', `/api/converses/${converseId}/messages?limit=50`, { token });
      assert.equal(res.status, 200);
      return [...res.body].sort((a, b) => a.seq - b.seq);
    };
    const userOf = async (id: string): Promise<PublicUser> =>
      (await api.request<PublicUser>('GET', `/api/users/${id}`, { token: owner.token })).body;

    // general: its messages and its thread's replies, numbered in time order.
    const messages = await history(general.converseId);
    assert.deepEqual(
      messages.map((m) => [m.seq, m.createdAt, m.content]),
      [
        [1, '2024-03-01T09:00:00.123Z', `Hello @bob and @all, plans are in #plans :seedparty:`],
        [2, '2024-03-01T09:02:00.000Z', 'Thanks @alice! Photos attached, @here'],
        [3, '2024-03-01T09:03:00.000Z', 'Reminder: water the :spin: tomatoes 2024-03-01T11:00:00Z'],
        [4, '2024-03-01T09:07:00.000Z', 'Mondays and Thursdays?'],
        [5, '2024-03-01T09:08:00.000Z', 'Thursday works'],
      ],
    );
    const [hello, thanks, reminder, mondays, thursday] = messages as [Message, Message, Message, Message, Message];
    const alice = await userOf(hello.authorId);
    assert.equal(alice.username, 'alice');
    assert.equal(alice.nickname, 'Alice A.');
    assert.equal(thanks.authorId, bob.id);
    assert.equal((await userOf(reminder.authorId)).username, 'helper');
    assert.equal((await userOf(mondays.authorId)).username, 'carol');

    // Edits, pins, mentions, reactions.
    assert.equal(hello.editedAt, '2024-03-01T09:05:00.000Z');
    assert.ok(hello.pinned, 'the pinned message is pinned');
    const pins = (
      await api.request<Message[]>('GET', `/api/converses/${general.converseId}/pins`, { token: owner.token })
    ).body;
    assert.deepEqual(
      pins.map((m) => m.id),
      [hello.id],
    );
    assert.deepEqual(hello.mentions, [bob.id]);
    assert.equal(hello.mentionsAll, true);
    assert.deepEqual(thanks.mentions, [alice.id]);
    assert.deepEqual(
      hello.reactions.map((r) => [r.emoji, r.count]).sort(),
      [
        [':seedparty:', 1],
        ['👍', 2],
      ].sort(),
    );

    // The reply and the thread: the thread hangs under the message it was started from.
    assert.equal(thanks.replyTo, hello.id);
    assert.equal((hello.thread as ThreadSummary).replyCount, 2);
    assert.equal(mondays.threadId, hello.id);
    assert.equal(thursday.threadId, hello.id);
    assert.equal(thursday.replyTo, mondays.id);
    const thread = (await api.request<Message[]>('GET', `/api/messages/${hello.id}/thread`, { token: owner.token }))
      .body;
    assert.deepEqual(
      thread.map((m) => m.content),
      ['Mondays and Thursdays?', 'Thursday works'],
    );
    const gone = await userOf(thursday.authorId);
    assert.notEqual(gone.id, owner.id);

    // The attachment exported with the media, byte for byte.
    assert.equal(thanks.attachments.length, 1);
    const download = await fetch(`${api.base}/api/files/${thanks.attachments[0]}`, {
      headers: { authorization: `Bearer ${owner.token}` },
    });
    assert.equal(download.status, 200);
    assert.deepEqual(Buffer.from(await download.arrayBuffer()), await readFile(SEEDLINGS));

    // The custom emoji whose image was exported.
    const emoji = (
      await api.request<Array<{ name: string }>>('GET', `/api/groups/${garden.id}/emoji`, { token: owner.token })
    ).body;
    assert.deepEqual(
      emoji.map((e) => e.name),
      ['seedparty'],
    );

    assert.deepEqual(
      (await history(plans.converseId)).map((m) => m.content),
      ['Spring plan: beans, peas, kale', 'Add :ghost_dance: squash'],
    );

    // bob's direct conversations: the one with alice, and the group DM only alice wrote in.
    const dms = (await api.request<Array<{ id: string; memberIds: string[] }>>('GET', '/api/dms', { token: bob.token }))
      .body;
    const dmTexts = await Promise.all(
      dms.map(async (dm) => [dm.memberIds.length, (await history(dm.id, bob.token)).map((m) => m.content)] as const),
    );
    assert.deepEqual(
      dmTexts.sort((a, b) => a[0] - b[0]),
      [
        [2, ['Can you feed the cat?', 'Sure']],
        [3, ['Seed swap on Saturday?']],
      ],
    );

    const second = await importFixture('gardener');
    assert.deepEqual(
      { ...second.summary, skipped: 0 },
      { groups: 0, panels: 0, users: 0, messages: 0, replies: 0, reactions: 0, files: 0, skipped: 0 },
    );
    assert.equal(second.skippedReasons['already imported'], 10);
    assert.equal((await history(general.converseId)).length, messages.length);
  });
});
