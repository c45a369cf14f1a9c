import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { RunningNode } from '../../src/node.ts';
import { groupWithMembers, overNats, startApi, startExtraNode, type ApiHarness } from '../api/harness.ts';
import { connectClient, record, until, type ClientSocket } from '../realtime/client.ts';

/**
 * Two user nodes over NATS and one database, both sweeping the stored
 * status deadlines: a do not disturb that ends is announced once, by one of them.
 */
describe('status deadlines with two user nodes', () => {
  let api: ApiHarness;
  let other: RunningNode;
  const sockets: ClientSocket[] = [];
  before(async () => {
    api = await startApi(import.meta.url, overNats('status-a'));
    other = await startExtraNode(api, { SERVICES: 'user', NODE_ID: 'status-b' });
    await other.broker.waitForServices(['gateway', 'chat'], 10_000);
  });
  after(async () => {
    for (const s of sockets) s.disconnect();
    await other?.stop();
    await api?.close();
  });

  it('announces the end of do not disturb exactly once, and clears the deadline', async () => {
    const { owner, members } = await groupWithMembers(api, 1);
    const watcher = await connectClient(api.base, members[0]!.token);
    sockets.push(watcher);
    const seen = record(watcher, 'presence');
    // Set through the other node's user service: the deadline is in the database, not in that node.
    await other.broker.call(
      'user.updateMe',
      { status: { dnd: true, until: new Date(Date.now() + 1_500).toISOString() } },
      { meta: { user: { id: owner.id } } },
    );
    await until('dnd told', () => seen.some((p) => p.userId === owner.id && p.dnd === true));
    const marked = seen.length;
    const ends = () => seen.slice(marked).filter((p) => p.userId === owner.id && p.dnd === undefined && !p.text);
    await until('end told', () => ends().length > 0, 15_000);
    // Nothing is due any more, so no node can announce it again from here on...
    const doc = await api.node.app.mongo!.collection('users').findOne({ username: owner.username });
    assert.equal(doc?.statusCheckAt, undefined, 'nothing is due any more');
    // ...and a change made after it arrives after any second announcement a racing node had sent.
    await api.request('PATCH', '/api/users/me', { token: owner.token, body: { status: { text: 'back' } } });
    await until('later change told', () => seen.some((p) => p.userId === owner.id && p.text === 'back'));
    assert.equal(ends().length, 1, JSON.stringify(seen.slice(marked)));
  });
});
