// A gateway is ready once every service it forwards to runs somewhere in the
// cluster; the call service counts only when calls are on (VOICE=on), so a
// cluster without calls needs no call node, and one with calls is not ready
// until its call node is up.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { RunningNode } from '../../src/node.ts';
import { eventually, overNats, startApi, startExtraNode, type ApiHarness } from '../api/harness.ts';

/** Every service but the call service. */
const WITHOUT_CALLS = 'gateway,user,group,chat,file,push,moderation,integration,mail,import';

const readiness = async (base: string) => {
  const res = await fetch(`${base}/ready`);
  return { status: res.status, body: (await res.json()) as { checks?: Record<string, string> } };
};

const baseOf = (node: RunningNode) =>
  `http://127.0.0.1:${(node.broker.getLocalService('gateway') as unknown as { address(): AddressInfo }).address().port}`;

describe('gateway readiness and the call service', () => {
  let api: ApiHarness;
  const extra: RunningNode[] = [];

  before(async () => {
    api = await startApi(import.meta.url, (env) => ({
      ...overNats('calls-ready-a')(env),
      SERVICES: WITHOUT_CALLS,
      VOICE: 'off',
    }));
  });
  after(async () => {
    for (const node of extra.reverse()) await node.stop();
    await api?.close();
  });

  it('is ready without a call service when calls are off, and waits for one when they are on', async () => {
    const off = await readiness(api.base);
    assert.equal(off.status, 200, JSON.stringify(off.body));

    const gatewayWithCalls = await startExtraNode(api, {
      SERVICES: 'gateway',
      NODE_ID: 'calls-ready-b',
      VOICE: 'on',
      PORT: '0',
    });
    extra.push(gatewayWithCalls);
    const on = await readiness(baseOf(gatewayWithCalls));
    assert.equal(on.status, 503);
    assert.match(on.body.checks?.services ?? '', /not reachable: call$/);

    extra.push(await startExtraNode(api, { SERVICES: 'call', NODE_ID: 'calls-ready-c', VOICE: 'on' }));
    const ready = await eventually(
      () => readiness(baseOf(gatewayWithCalls)),
      (r) => r.status === 200,
      20_000,
    );
    assert.equal(ready.status, 200, JSON.stringify(ready.body));
  });
});
