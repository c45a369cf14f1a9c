import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { Group, Message, PublicUser } from '@im/protocol';
import { announceImport, openSource, runImport, type ImportOutcome } from '@im/service-import';
import { apiWithSockets } from '../api/harness.ts';

const FIXTURE = fileURLToPath(
  new URL('../../../services/import/test/fixtures/slack/Acme Slack export Mar 1 2024 - Mar 3 2024/', import.meta.url),
);

/**
 * A Slack export (the reader's test export, as a folder: the reader's own
 * test covers its zip) imported through the writer into a running single
 * instance, read back through the HTTP API, then imported again.
 */
describe('Slack import', () => {
  const { api } = apiWithSockets(import.meta.url);

  async function importOnce(owner: string): Promise<ImportOutcome> {
    const source = await openSource('slack', FIXTURE);
    try {
      return await runImport(api.node.app.mongo!.db!, api.node.app.storage!, source, { owner });
    } finally {
      await source.close();
    }
  }

  it('keeps authors, times, order, threads, reactions, pins, mentions, files and private channels; a second run adds nothing', async () => {
    const owner = await api.user('own');
    // bob has an account here already: matched by username.
    const registered = await api.request<{ token: string; user: { id: string } }>('POST', '/api/auth/register', {
      body: { username: 'bob', password: 'correct horse battery' },
    });
    assert.equal(registered.status, 201);
    const bob = { token: registered.body.token, id: registered.body.user.id };
    const nameOf = async (id: string) =>
      (await api.request<PublicUser>('GET', `/api/users/${id}`, { token: owner.token })).body.username;

    const first = await importOnce(owner.username);
    assert.deepEqual(first.summary, {
      groups: 1,
      panels: 3,
      users: 6, // alice, carol, deploybot, the CI Bot webhook, ghost (from his messages) and the unknown U08NOBODY
      messages: 17,
      replies: 4,
      reactions: 5,
      files: 3, // plan.txt, notes.md and the party_parrot image
      skipped: first.summary.skipped,
    });
    assert.equal(first.skippedReasons['system message'], 2);
    assert.equal(first.skippedReasons['file missing from the export'], 1);
    assert.equal(first.skippedReasons['unreadable day file'], 1);
    assert.equal(first.skippedReasons['message in a channel the export does not list'], 2);
    assert.equal(first.skippedReasons['reaction with an emoji that has no Unicode equivalent or image'], 1);
    await announceImport(api.broker, first);

    const acme = (await api.request<Group[]>('GET', '/api/groups', { token: owner.token })).body.find(
      (g) => g.name === 'Acme',
    );
    assert.ok(acme, 'the owner sees the workspace as a group');
    assert.equal(acme.ownerId, owner.id);
    assert.deepEqual(acme.panels.map((p) => p.name).sort(), ['general', 'random', 'secret-plans']);
    const panel = (name: string) => acme.panels.find((p) => p.name === name)!;
    assert.equal(panel('general').topic, 'Company-wide news');
    assert.equal(panel('secret-plans').private, true);

    const general = (
      await api.request<Message[]>('GET', `/api/converses/${panel('general').converseId}/messages?limit=50`, {
        token: owner.token,
      })
    ).body.sort((a, b) => a.seq - b.seq);
    // Numbered in time order, the later day's messages last.
    assert.deepEqual(
      general.map((m) => m.createdAt),
      [
        '2024-03-01T08:01:00.000Z',
        '2024-03-01T08:03:00.000Z',
        '2024-03-01T08:04:00.000Z',
        '2024-03-01T08:05:00.000Z',
        '2024-03-01T08:06:00.000Z',
        '2024-03-01T08:07:00.000Z',
        '2024-03-01T08:08:00.000Z',
        '2024-03-01T08:09:00.000Z',
        '2024-03-01T08:11:00.001Z',
        '2024-03-03T08:00:00.000Z',
        '2024-03-03T08:01:00.000Z',
      ],
    );
    assert.deepEqual(
      general.map((m) => m.seq),
      general.map((_, i) => i + 1),
    );
    const [root, bobReply, ciBot, planFile, budget, carolReply, waves, ghost, deploy, laterReply, orphan] = general;
    const authors = await Promise.all(general.map((m) => nameOf(m.authorId)));
    assert.equal(authors[0], 'alice');
    assert.equal(authors[1], 'bob');
    assert.equal(bobReply!.authorId, bob.id);
    assert.equal(authors[7], 'ghost');

    assert.equal(
      root!.content,
      'Hello @all! Read **the plan** in #random and #general, *soon*, ~~old~~: [the plan doc](https://example.com/plan?a=1&b=2) <tag> & `code *not bold*` 🚀',
    );
    assert.equal(root!.editedAt, '2024-03-01T08:02:00.000Z');
    assert.ok(root!.pinned, 'pinned');
    assert.deepEqual(
      root!.reactions.map((r) => [r.emoji, r.count]).sort(),
      [
        [':party_parrot:', 1],
        ['👍', 3],
      ].sort(),
    );
    assert.equal(root!.thread?.replyCount, 3);
    for (const reply of [bobReply, carolReply, laterReply]) assert.equal(reply!.threadId, root!.id);
    assert.equal(orphan!.threadId, undefined, 'a reply to a thread older than the export is a plain message');

    assert.equal(bobReply!.content, '@alice agreed, see https://example.org');
    assert.deepEqual(bobReply!.mentions, [root!.authorId]);
    assert.equal(carolReply!.content, 'me too @ghost');
    assert.deepEqual(carolReply!.mentions, [ghost!.authorId]);
    assert.equal(ciBot!.content, 'Build **#42** passed');
    assert.equal(await nameOf(ciBot!.authorId), authors[2]);
    assert.equal(budget!.content, '*budget.xlsx* (file not in the export)');
    assert.equal(waves!.content, 'waves');
    assert.equal(waves!.emote, true, '/me is kept as an action');
    assert.equal(deploy!.content, 'Deployed:\n```\nline1\n<b> *x*\n```\ndone');

    assert.equal(planFile!.attachments.length, 1);
    const download = await fetch(`${api.base}/api/files/${planFile!.attachments[0]}`, {
      headers: { authorization: `Bearer ${owner.token}` },
    });
    assert.equal(download.status, 200);
    assert.equal(await download.text(), 'the plan\n');

    // A reply whose root carries no thread_ts of its own still lands in its thread.
    const random = (
      await api.request<Message[]>('GET', `/api/converses/${panel('random').converseId}/messages?limit=50`, {
        token: owner.token,
      })
    ).body.sort((a, b) => a.seq - b.seq);
    assert.deepEqual(
      random.map((m) => m.content),
      ['notes attached', 'a question, from an export that marks no roots', 'an answer'],
    );
    assert.equal(random[2]!.threadId, random[1]!.id);
    assert.equal(random[1]!.thread?.replyCount, 1);

    // The private channel: bob is in the group but not in it.
    const secret = panel('secret-plans').converseId;
    assert.equal((await api.request('GET', `/api/converses/${secret}/messages`, { token: bob.token })).status, 404);
    const bobsGroup = (await api.request<Group[]>('GET', '/api/groups', { token: bob.token })).body.find(
      (g) => g.id === acme.id,
    );
    assert.deepEqual(bobsGroup?.panels.map((p) => p.name).sort(), ['general', 'random']);
    const secrets = (await api.request<Message[]>('GET', `/api/converses/${secret}/messages`, { token: owner.token }))
      .body;
    assert.deepEqual(
      secrets.map((m) => m.content),
      ['secret **stuff**'],
    );

    // The DM and the group DM bob was in.
    const dms = (await api.request<Array<{ id: string; memberIds: string[] }>>('GET', '/api/dms', { token: bob.token }))
      .body;
    const contents = await Promise.all(
      dms.map(
        async (dm) =>
          (await api.request<Message[]>('GET', `/api/converses/${dm.id}/messages`, { token: bob.token })).body.map(
            (m) => [m.content, dm.memberIds.length],
          )[0],
      ),
    );
    assert.deepEqual(
      contents.sort(),
      [
        ['hi all three', 3],
        ['psst @alice', 2],
      ].sort(),
    );

    const second = await importOnce(owner.username);
    assert.deepEqual(
      { ...second.summary, skipped: 0 },
      { groups: 0, panels: 0, users: 0, messages: 0, replies: 0, reactions: 0, files: 0, skipped: 0 },
    );
    assert.equal(second.skippedReasons['already imported'], 17);
    const again = await api.request<Message[]>(
      'GET',
      `/api/converses/${panel('general').converseId}/messages?limit=50`,
      { token: owner.token },
    );
    assert.equal(again.body.length, general.length);
  });
});
