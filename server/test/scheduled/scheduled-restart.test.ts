import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Message, ScheduledAccepted } from '@im/protocol';
import type { RunningNode } from '../../src/node.ts';
import { eventually, groupWithMembers, startApi, startSingleNode, type ApiHarness } from '../api/harness.ts';

/** Long enough for the node to stop before the message is due. */
const AHEAD_MS = 3000;

describe('a scheduled message across a restart', () => {
  let api: ApiHarness;
  let restarted: RunningNode | undefined;
  before(async () => {
    api = await startApi(import.meta.url, { SCHEDULE_POLL_MS: '200' });
  });
  after(async () => {
    await restarted?.stop();
    await api.env.close();
  });

  it('is sent when a node starts again after sendAt passed while none ran', async () => {
    const { owner, converseId } = await groupWithMembers(api, 0);
    const sendAt = new Date(Date.now() + AHEAD_MS);
    const res = await api.request<ScheduledAccepted>('POST', `/api/converses/${converseId}/messages`, {
      token: owner.token,
      body: { content: 'kept across a restart', sendAt: sendAt.toISOString() },
    });
    assert.equal(res.status, 202);
    await api.node.stop();
    assert.ok(Date.now() < sendAt.getTime(), 'stopped before it was due (the test machine was too slow)');

    let base: string;
    ({ node: restarted, base } = await startSingleNode(api.env, { SCHEDULE_POLL_MS: '200' }));
    const history = await eventually(
      async () => {
        const answer = await fetch(`${base}/api/converses/${converseId}/messages`, {
          headers: { authorization: `Bearer ${owner.token}` },
        });
        return (await answer.json()) as Message[];
      },
      (messages) => messages.some((m) => m.content === 'kept across a restart'),
      20_000,
    );
    const sent = history.filter((m) => m.content === 'kept across a restart');
    assert.equal(sent.length, 1);
    assert.ok(Date.parse(sent[0]!.createdAt) >= sendAt.getTime(), 'not before its time');
  });
});
