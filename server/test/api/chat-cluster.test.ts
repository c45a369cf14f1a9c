import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Group, Message } from '@im/protocol';
import type { RunningNode } from '../../src/node.ts';
import { overNats, startApi, startExtraNode, type ApiHarness } from './harness.ts';

/**
 * Two chat nodes, each with its own write batcher, over NATS and one
 * database: sends through both into one converse still number 1..N.
 */
describe('message sequence across two chat nodes', () => {
  let api: ApiHarness;
  let other: RunningNode;
  before(async () => {
    api = await startApi(import.meta.url, overNats('chat-a'));
    other = await startExtraNode(api, { SERVICES: 'chat', NODE_ID: 'chat-b' });
    await other.broker.waitForServices(['group', 'user'], 10_000);
  });
  after(async () => {
    await other?.stop();
    await api?.close();
  });

  it('gives 300 concurrent sends through two nodes seqs 1..300 exactly', async () => {
    const owner = await api.user();
    const group = (await api.request<Group>('POST', '/api/groups', { token: owner.token, body: { name: 'Split' } }))
      .body;
    const converseId = group.panels[0]!.converseId;
    const meta = { meta: { user: { id: owner.id } } };
    const sends = Array.from(
      { length: 300 },
      (_, i) =>
        (i % 2 ? api.broker : other.broker).call(
          'chat.send',
          { converseId, content: `m${i}`, clientMsgId: `k${i}` },
          meta,
        ) as Promise<Message>,
    );
    const messages = await Promise.all(sends);
    assert.deepEqual(
      messages.map((m) => m.seq).sort((a, b) => a - b),
      Array.from({ length: 300 }, (_, i) => i + 1),
    );
    const stored = await api.node.app
      .mongo!.collection('messages')
      .find({}, { projection: { seq: 1 } })
      .sort({ seq: 1 })
      .toArray();
    assert.deepEqual(
      stored.map((d) => d.seq),
      Array.from({ length: 300 }, (_, i) => i + 1),
    );
  });
});
