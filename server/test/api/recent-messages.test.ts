import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Group, Message, SyncResult, UnreadEntry } from '@im/protocol';
import { Types, type Connection } from 'mongoose';
import { collectionCalls } from '../support/collection-calls.ts';
import type { RunningNode } from '../../src/node.ts';
import { overNats, startApi, startExtraNode, type ApiHarness } from './harness.ts';

type User = Awaited<ReturnType<ApiHarness['user']>>;

/** What `work` asked of the messages collection, the writer's inserts aside. */
const messageReads = async (connection: Connection, work: () => Promise<unknown>): Promise<string[]> =>
  (await collectionCalls(connection, 'messages', work)).filter((m) => m !== 'insertMany');

async function groupWith(api: ApiHarness, owner: User, members: User[], name = 'Recent') {
  const group = (await api.request<Group>('POST', '/api/groups', { token: owner.token, body: { name } })).body;
  for (const m of members) {
    const invite = await api.request<{ code: string }>('POST', `/api/groups/${group.id}/invites`, {
      token: owner.token,
      body: {},
    });
    const joined = await api.request('POST', `/api/invites/${invite.body.code}/accept`, { token: m.token });
    assert.equal(joined.status, 200);
  }
  return { group, converseId: group.panels[0]!.converseId };
}

describe('the newest messages kept in memory, and mentions kept rather than counted', () => {
  let api: ApiHarness;
  before(async () => {
    api = await startApi(import.meta.url);
  });
  after(async () => api?.close());

  const send = async (u: User, converseId: string, content: string) => {
    const res = await api.request<Message>('POST', `/api/converses/${converseId}/messages`, {
      token: u.token,
      body: { content },
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body;
  };
  const history = async (u: User, converseId: string, query = '') => {
    const res = await api.request<Message[]>('GET', `/api/converses/${converseId}/messages${query}`, {
      token: u.token,
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body;
  };
  const unreadOf = async (u: User, converseId: string) =>
    (await api.request<UnreadEntry[]>('GET', '/api/unread', { token: u.token })).body.find(
      (e) => e.converseId === converseId,
    );

  it('opens a converse, pages just above it and syncs without reading messages, and answers as the database does', async () => {
    const owner = await api.user('rm');
    const { converseId } = await groupWith(api, owner, []);
    for (let i = 1; i <= 260; i += 1) await send(owner, converseId, `m${i}`);
    const mongo = api.node.app.mongo!;
    const pages: Record<string, Message[]> = {};
    const first = await messageReads(mongo, async () => {
      pages.newest = await history(owner, converseId, '?limit=50');
    });
    assert.deepEqual(first, [], 'the tail the writer kept answers the first open too');
    const kept = await messageReads(mongo, async () => {
      pages.again = await history(owner, converseId, '?limit=50');
      pages.above = await history(owner, converseId, '?before=211&limit=100');
      pages.between = await history(owner, converseId, '?after=100&before=120&limit=50');
      pages.older = await history(owner, converseId, '?before=111&limit=100');
      pages.after = await history(owner, converseId, '?after=255');
    });
    // 260 written: the newest 200 (61..260) are kept; a page reaching below 61 reads the database.
    assert.deepEqual(kept, ['find'], 'only the page below the kept 200 reads the database');
    const seqs = (ms: Message[]) => ms.map((m) => m.seq);
    const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
    assert.deepEqual(seqs(pages.newest!), range(211, 260));
    assert.deepEqual(pages.again, pages.newest);
    assert.deepEqual(seqs(pages.above!), range(111, 210));
    assert.deepEqual(seqs(pages.between!), range(101, 119));
    assert.deepEqual(seqs(pages.older!), range(11, 110));
    assert.deepEqual(seqs(pages.after!), range(256, 260));
    assert.deepEqual(
      pages.newest!.map((m) => m.content),
      range(211, 260).map((i) => `m${i}`),
    );

    const sync = (cursors: Record<string, number>) =>
      api.broker.call('chat.sync', { cursors }, { meta: { user: { id: owner.id } } }) as Promise<SyncResult>;
    const synced: SyncResult[] = [];
    const syncReads = await messageReads(mongo, async () => {
      synced.push(
        await sync({ [converseId]: 260 }),
        await sync({ [converseId]: 250 }),
        await sync({ [converseId]: 10 }),
      );
    });
    assert.deepEqual(syncReads, [], 'nothing missed, a few missed and too many read no message');
    assert.deepEqual(synced[0]!.converses[converseId], { messages: [] });
    assert.deepEqual(seqs(synced[1]!.converses[converseId]!.messages), range(251, 260));
    assert.deepEqual(synced[2]!.converses[converseId], { messages: [], tooMany: true, lastSeq: 260 });
  });

  it('shows edits, reactions and deletions at once, from memory', async () => {
    const [a, b] = [await api.user('rm'), await api.user('rm')];
    const { converseId } = await groupWith(api, a, [b]);
    const m1 = await send(a, converseId, 'first');
    const m2 = await send(b, converseId, 'second');
    await history(b, converseId);
    const mongo = api.node.app.mongo!;
    const pages: Message[][] = [];
    const reads = await messageReads(mongo, async () => {
      await api.request('PATCH', `/api/messages/${m1.id}`, { token: a.token, body: { content: 'first, edited' } });
      pages.push(await history(b, converseId));
      await api.request('PUT', `/api/messages/${m2.id}/reactions/${encodeURIComponent('👍')}`, { token: a.token });
      pages.push(await history(b, converseId), await history(a, converseId));
      await api.request('DELETE', `/api/messages/${m1.id}`, { token: a.token });
      pages.push(await history(b, converseId));
    });
    // The edit, reaction and deletion each read their message by id; no page reads messages.
    assert.deepEqual(
      reads.filter((m) => m === 'find'),
      [],
    );
    assert.equal(pages[0]![0]!.content, 'first, edited');
    assert.ok(pages[0]![0]!.editedAt);
    assert.deepEqual(pages[1]![1]!.reactions, [{ emoji: '👍', count: 1, me: false }], "b sees a's reaction");
    assert.deepEqual(pages[2]![1]!.reactions, [{ emoji: '👍', count: 1, me: true }], 'a sees it as theirs');
    assert.deepEqual(
      { deleted: pages[3]![0]!.deleted, content: pages[3]![0]!.content, seq: pages[3]![0]!.seq },
      { deleted: true, content: '', seq: 1 },
    );
  });

  it('counts unread mentions through sends, edits, deletions and acks without reading messages', async () => {
    const [a, b] = [await api.user('rm'), await api.user('rm')];
    const { converseId } = await groupWith(api, a, [b]);
    const mongo = api.node.app.mongo!;
    const mention = `@${b.username}`;
    const entries: Array<UnreadEntry | undefined> = [];
    const check = async () => {
      const reads = await messageReads(mongo, async () => entries.push(await unreadOf(b, converseId)));
      assert.deepEqual(reads, [], 'the unread summary reads no message');
      return entries.at(-1)!;
    };
    const m1 = await send(a, converseId, `hello ${mention}`);
    const m2 = await send(a, converseId, 'no mention here');
    const m3 = await send(a, converseId, `${mention} again`);
    assert.equal((await check()).mentions, 2);
    await api.request('PATCH', `/api/messages/${m2.id}`, { token: a.token, body: { content: `now ${mention}` } });
    assert.equal((await check()).mentions, 3, 'an edit that adds a mention counts it');
    await api.request('PATCH', `/api/messages/${m1.id}`, { token: a.token, body: { content: 'nobody' } });
    assert.equal((await check()).mentions, 2, 'an edit that takes it away uncounts it');
    await api.request('PATCH', `/api/messages/${m2.id}`, { token: a.token, body: { content: `still ${mention}` } });
    assert.equal((await check()).mentions, 2, 'an edit that keeps it counts it once');
    await api.request('DELETE', `/api/messages/${m3.id}`, { token: a.token });
    assert.equal((await check()).mentions, 1, 'a deleted message mentions nobody');
    const ack = await api.request('POST', `/api/converses/${converseId}/ack`, { token: b.token, body: { seq: 2 } });
    assert.equal(ack.status, 204);
    assert.deepEqual(await check(), { converseId, lastSeq: 3, readSeq: 2, unread: 1, mentions: 0 });
    await api.request('PATCH', `/api/messages/${m1.id}`, { token: a.token, body: { content: `back ${mention}` } });
    assert.equal((await check()).mentions, 0, 'a mention added to a message already read is not unread');
    await send(a, converseId, `${mention} ${mention} twice in one`);
    assert.deepEqual(await check(), { converseId, lastSeq: 4, readSeq: 2, unread: 2, mentions: 1 });
  });
});

describe('kept messages on two chat nodes', () => {
  let api: ApiHarness;
  let other: RunningNode;
  before(async () => {
    api = await startApi(import.meta.url, overNats('recent-a'));
    other = await startExtraNode(api, { SERVICES: 'chat', NODE_ID: 'recent-b' });
    await other.broker.waitForServices(['group', 'user'], 10_000);
  });
  after(async () => {
    await other?.stop();
    await api?.close();
  });

  it("never answers from a tail that another node's send, edit, reaction or deletion made stale", async () => {
    const owner = await api.user('rc');
    const group = (await api.request<Group>('POST', '/api/groups', { token: owner.token, body: { name: 'Two' } })).body;
    const converseId = group.panels[0]!.converseId;
    const meta = { meta: { user: { id: owner.id } } };
    const [nodeA, nodeB] = [api.broker, other.broker];
    const call = <T>(broker: typeof nodeA, action: string, params: object) =>
      broker.call(action, params, meta) as Promise<T>;
    const newest = (broker: typeof nodeA) => call<Message[]>(broker, 'chat.history', { converseId, limit: 10 });
    const sync = (broker: typeof nodeA, lastSeq: number) =>
      call<SyncResult>(broker, 'chat.sync', { cursors: { [converseId]: lastSeq } });

    const m1 = await call<Message>(nodeA, 'chat.send', { converseId, content: 'one' });
    // Both nodes keep a tail now.
    assert.deepEqual(
      (await newest(nodeA)).map((m) => m.content),
      ['one'],
    );
    assert.deepEqual(
      (await newest(nodeB)).map((m) => m.content),
      ['one'],
    );

    await call(nodeA, 'chat.send', { converseId, content: 'two' });
    assert.deepEqual(
      (await newest(nodeB)).map((m) => m.content),
      ['one', 'two'],
      "B sees A's send",
    );
    assert.deepEqual(
      (await sync(nodeB, 1)).converses[converseId]!.messages.map((m) => m.content),
      ['two'],
    );

    await call(nodeB, 'chat.send', { converseId, content: 'three' });
    assert.deepEqual(
      (await newest(nodeA)).map((m) => m.content),
      ['one', 'two', 'three'],
      "A sees B's send",
    );

    await call(nodeA, 'chat.edit', { messageId: m1.id, content: 'one, edited' });
    assert.equal((await newest(nodeB))[0]!.content, 'one, edited', "B sees A's edit");

    await call(nodeB, 'chat.react', { messageId: m1.id, emoji: '🎉' });
    assert.deepEqual((await newest(nodeA))[0]!.reactions, [{ emoji: '🎉', count: 1, me: true }], "A sees B's reaction");

    await call(nodeA, 'chat.remove', { messageId: m1.id });
    const afterDelete = await newest(nodeB);
    assert.equal(afterDelete[0]!.deleted, true, "B sees A's deletion");
    assert.deepEqual(afterDelete[0]!.reactions, []);

    // Many edits of one message racing on both nodes: both end on what the database holds.
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        call(i % 2 ? nodeA : nodeB, 'chat.edit', { messageId: afterDelete[2]!.id, content: `three v${i}` }),
      ),
    );
    const final = await api.node.app
      .mongo!.collection('messages')
      .findOne({ converseId: new Types.ObjectId(converseId), seq: 3 });
    const stored = String(final?.content);
    assert.match(stored, /^three v/);
    assert.equal((await newest(nodeA))[2]!.content, stored);
    assert.equal((await newest(nodeB))[2]!.content, stored);
  });
});
