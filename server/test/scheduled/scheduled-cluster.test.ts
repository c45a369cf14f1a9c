import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Message, ScheduledAccepted, ScheduledEntry } from '@im/protocol';
import type { RunningNode } from '../../src/node.ts';
import { eventually, groupWithMembers, overNats, startApi, startExtraNode, type ApiHarness } from '../api/harness.ts';
import { connectClient, record, until, type ClientSocket } from '../realtime/client.ts';

/** Messages scheduled for the same moment: both chat nodes race for each. */
const SCHEDULED = 8;

describe('scheduled messages with two chat nodes', () => {
  let api: ApiHarness;
  let second: RunningNode;
  let socket: ClientSocket | undefined;
  before(async () => {
    api = await startApi(import.meta.url, (env) => ({ ...overNats('chat-a')(env), SCHEDULE_POLL_MS: '100' }));
    second = await startExtraNode(api, { NODE_ID: 'chat-b', SERVICES: 'chat', SCHEDULE_POLL_MS: '100' });
  });
  after(async () => {
    socket?.disconnect();
    await second?.stop();
    await api?.close();
  });

  it('sends each scheduled message exactly once', async () => {
    const { owner, members, converseId } = await groupWithMembers(api, 1);
    socket = await connectClient(api.base, members[0]!.token);
    const arrived = record(socket, 'message:new');
    const sendAt = new Date(Date.now() + 2000).toISOString();
    for (let i = 0; i < SCHEDULED; i += 1) {
      const res = await api.request<ScheduledAccepted>('POST', `/api/converses/${converseId}/messages`, {
        token: owner.token,
        body: { content: `at once ${i}`, sendAt },
      });
      assert.equal(res.status, 202, JSON.stringify(res.body));
    }
    const ours = () => arrived.filter((m) => m.content.startsWith('at once '));
    await until('every scheduled message', () => new Set(ours().map((m) => m.id)).size === SCHEDULED, 20_000);
    // Settled only after its send was announced: once the list is empty, every send there was has been heard.
    const left = await eventually(
      async () => (await api.request<ScheduledEntry[]>('GET', '/api/scheduled', { token: owner.token })).body,
      (list) => list.length === 0,
      20_000,
    );
    assert.deepEqual(left, []);
    assert.equal(ours().length, SCHEDULED, 'no message announced twice');
    const history = await api.request<Message[]>('GET', `/api/converses/${converseId}/messages`, {
      token: owner.token,
    });
    const stored = history.body.filter((m) => m.content.startsWith('at once '));
    assert.equal(stored.length, SCHEDULED, 'each stored once');
    assert.deepEqual(new Set(stored.map((m) => m.content)).size, SCHEDULED);
  });
});
