import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { Group, Message, ThreadSummary } from '@im/protocol';
import { announceImport, openSource, runImport } from '@im/service-import';
import { apiWithSockets } from '../api/harness.ts';
import { connectClient, record, until } from '../realtime/client.ts';

const FIXTURE = fileURLToPath(new URL('../../../services/import/test/fixtures/mattermost/', import.meta.url));
const JSONL = `${FIXTURE}export.jsonl`;
const fixtureFile = (name: string) => readFile(`${FIXTURE}${name}`);

/**
 * The Mattermost test export (services/import/test/fixtures/mattermost)
 * imported into a running single instance and read back through the API:
 * authors, times, order, threads, reactions, pins, mentions, files, private
 * panels and DMs; importing it again adds nothing.
 */
describe('Mattermost import', () => {
  const { api, sockets } = apiWithSockets(import.meta.url);

  /** An account that the export's person of the same username is matched to (so the test can sign in as them). */
  async function account(username: string): Promise<{ token: string; id: string }> {
    const res = await api.request<{ token: string; user: { id: string } }>('POST', '/api/auth/register', {
      body: { username, password: 'correct horse battery' },
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return { token: res.body.token, id: res.body.user.id };
  }

  const bySeq = (messages: Message[]) => [...messages].sort((a, b) => a.seq - b.seq);

  it('imports the export, reads back through the API, and a second run adds nothing', async () => {
    const owner = await api.user('own');
    const alice = await account('alice');
    const bob = await account('bob');
    const ownerSocket = await connectClient(api.base, owner.token);
    sockets.push(ownerSocket);
    const joined = record(ownerSocket, 'member:joined');
    const db = api.node.app.mongo!.db!;
    const storage = api.node.app.storage!;

    const importOnce = async () => {
      const source = await openSource('mattermost', JSONL);
      try {
        return await runImport(db, storage, source, { owner: owner.username });
      } finally {
        await source.close();
      }
    };
    const first = await importOnce();
    assert.deepEqual(
      { ...first.summary, skipped: 0 },
      {
        groups: 2,
        panels: 3,
        users: 4, // carol, dave, the bot and erin (the author nobody lists); alice and bob are matched
        messages: 13,
        replies: 3,
        reactions: 4,
        files: 4, // notes.txt, rules.png and the custom emoji's image in each of the two groups
        skipped: 0,
      },
    );
    for (const [reason, count] of Object.entries({
      'system message': 1,
      'file missing from the export': 1,
      'post in a channel the export does not list': 2,
      'direct messages with oneself': 2,
    })) {
      assert.equal(first.skippedReasons[reason], count, reason);
    }
    await announceImport(api.broker, first);
    await until('the owner is told of the new groups', () => joined.filter((j) => j.userId === owner.id).length >= 2);

    const groups = (await api.request<Group[]>('GET', '/api/groups', { token: owner.token })).body;
    const acme = groups.find((g) => g.name === 'Acme Inc')!;
    const hobby = groups.find((g) => g.name === 'Hobby club')!;
    assert.ok(acme && hobby, 'the owner has both teams as groups');
    assert.equal(acme.ownerId, owner.id);
    assert.equal(acme.description, 'Where Acme works');
    const square = acme.panels.find((p) => p.name === 'Town Square')!;
    const board = acme.panels.find((p) => p.name === 'Board room')!;
    assert.equal(square.topic, 'Everything about Acme');
    assert.equal(board.private, true);

    // Town Square: numbered in time order, the replies in their thread.
    const history = bySeq(
      (
        await api.request<Message[]>('GET', `/api/converses/${square.converseId}/messages?limit=50`, {
          token: alice.token,
        })
      ).body,
    );
    assert.deepEqual(
      history.map((m) => [m.seq, m.content, m.createdAt]),
      [
        [
          1,
          'Hello @bob and @all! Mail bob@example.com, see `@carol` in code, thanks @carol.',
          '2023-11-14T22:15:00.000Z',
        ],
        [2, 'The rules', '2023-11-14T22:15:50.000Z'],
        [3, 'Sent in the same millisecond', '2023-11-14T22:15:50.000Z'],
        [4, 'Hi @alice', '2023-11-14T22:16:40.000Z'],
        [5, '@here the notes', '2023-11-14T22:18:20.000Z'],
      ],
    );
    const [hello, rules, , hi, notes] = history;
    assert.equal(hello!.authorId, alice.id, 'alice is matched by username');
    assert.equal(rules!.authorId, bob.id);
    const carolId = notes!.authorId;
    assert.notEqual(carolId, alice.id);
    assert.deepEqual(new Set(hello!.mentions), new Set([bob.id, carolId]));
    assert.equal(hello!.mentionsAll, true);
    assert.equal(notes!.mentionsHere, true);
    assert.deepEqual(
      hello!.reactions.map((r) => [r.emoji, r.count]).sort(),
      [
        [':party_parrot:', 1],
        ['👍', 2],
      ].sort(),
    );
    assert.equal((hello!.thread as ThreadSummary).replyCount, 2);
    assert.equal(hi!.threadId, hello!.id);
    assert.equal(notes!.threadId, hello!.id);
    assert.equal(hi!.editedAt, '2023-11-14T22:17:30.000Z');
    assert.deepEqual(hi!.mentions, [alice.id]);

    // The pin and the files that were in the export (the missing one is not).
    assert.notEqual(rules!.pinned, undefined);
    const pins = await api.request<Message[]>('GET', `/api/converses/${square.converseId}/pins`, {
      token: alice.token,
    });
    assert.deepEqual(
      pins.body.map((m) => m.id),
      [rules!.id],
    );
    assert.equal(rules!.attachments.length, 1);
    assert.equal(notes!.attachments.length, 1);
    for (const [message, file] of [
      [rules!, 'data/20231114/teams/acme/rules.png'],
      [notes!, 'data/20231114/teams/acme/notes.txt'],
    ] as const) {
      const download = await fetch(`${api.base}/api/files/${message.attachments[0]}`, {
        headers: { authorization: `Bearer ${alice.token}` },
      });
      assert.equal(download.status, 200);
      assert.deepEqual(Buffer.from(await download.arrayBuffer()), await fixtureFile(file));
    }

    // The private channel: its member reads it, a member of the team who is not in it does not.
    const boardAsAlice = await api.request<Message[]>('GET', `/api/converses/${board.converseId}/messages`, {
      token: alice.token,
    });
    assert.deepEqual(
      boardAsAlice.body.map((m) => [m.content, m.authorId, m.editedAt]),
      [['The board meets :party_parrot:', carolId, '2023-11-14T22:20:50.000Z']],
    );
    const boardAsBob = await api.request('GET', `/api/converses/${board.converseId}/messages`, { token: bob.token });
    assert.equal(boardAsBob.status, 404);

    // The other team: a deleted person, an author the export does not list, a bot.
    const hobbySquare = hobby.panels.find((p) => p.name === 'Hobby square')!;
    const hobbyHistory = bySeq(
      (
        await api.request<Message[]>('GET', `/api/converses/${hobbySquare.converseId}/messages`, {
          token: alice.token,
        })
      ).body,
    );
    assert.deepEqual(
      hobbyHistory.map((m) => m.content),
      ['Goodbye everyone', 'Nobody lists me', 'Reminder: meet @alice at noon'],
    );
    assert.equal(new Set(hobbyHistory.map((m) => m.authorId)).size, 3);
    assert.deepEqual(hobbyHistory[2]!.mentions, [alice.id]);

    // The custom emoji, with its image.
    const emoji = await api.request<Array<{ name: string }>>('GET', `/api/groups/${acme.id}/emoji`, {
      token: alice.token,
    });
    assert.deepEqual(
      emoji.body.map((e) => e.name),
      ['party_parrot'],
    );

    // DMs: alice and bob, and the group DM with carol and its thread.
    const dms = (
      await api.request<Array<{ id: string; memberIds: string[] }>>('GET', '/api/dms', { token: alice.token })
    ).body;
    assert.deepEqual(dms.map((d) => d.memberIds.length).sort(), [2, 3]);
    const pair = dms.find((d) => d.memberIds.length === 2)!;
    const trio = dms.find((d) => d.memberIds.length === 3)!;
    assert.deepEqual(new Set(pair.memberIds), new Set([alice.id, bob.id]));
    assert.deepEqual(new Set(trio.memberIds), new Set([alice.id, bob.id, carolId]));
    const psst = (await api.request<Message[]>('GET', `/api/converses/${pair.id}/messages`, { token: bob.token })).body;
    assert.deepEqual(
      psst.map((m) => [m.seq, m.content, m.authorId, m.mentions]),
      [[1, 'Psst @bob', alice.id, [bob.id]]],
    );
    // Mattermost's `heart`, with or without the emoji presentation selector.
    assert.match(psst[0]!.reactions.map((r) => r.emoji).join(), /^\u2764\uFE0F?$/u);
    const plans = bySeq(
      (await api.request<Message[]>('GET', `/api/converses/${trio.id}/messages`, { token: bob.token })).body,
    );
    assert.deepEqual(
      plans.map((m) => [m.seq, m.content]),
      [
        [1, 'Group plans'],
        [2, 'Count me in'],
      ],
    );
    assert.equal(plans[1]!.threadId, plans[0]!.id);
    assert.equal(plans[1]!.authorId, alice.id);
    const bobsDms = (await api.request<Array<{ id: string }>>('GET', '/api/dms', { token: bob.token })).body;
    assert.equal(bobsDms.length, 3, 'with dave too: a DM whose channel line is missing');

    // Again: everything is found, nothing is added.
    const second = await importOnce();
    assert.deepEqual(
      { ...second.summary, skipped: 0 },
      { groups: 0, panels: 0, users: 0, messages: 0, replies: 0, reactions: 0, files: 0, skipped: 0 },
    );
    assert.equal(second.skippedReasons['already imported'], 13);
    const again = await api.request<Message[]>('GET', `/api/converses/${square.converseId}/messages?limit=50`, {
      token: alice.token,
    });
    assert.equal(again.body.length, history.length);
  });
});
