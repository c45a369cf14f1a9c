import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Group } from '@im/protocol';
import type { Context } from 'moleculer';
import type { RunningNode } from '../../src/node.ts';
import { eventually, overNats, startApi, startExtraNode, type ApiHarness } from '../api/harness.ts';

/**
 * Two gateways over NATS, each keeping its own rendered pages: a panel or
 * group that stops being public is a 404 on both as soon as the change is
 * answered, whichever gateway took it, never a stale 200.
 */
describe('web-public pages on two gateways', () => {
  let api: ApiHarness;
  let other: RunningNode;
  let otherBase: string;

  before(async () => {
    // Events as broker broadcasts (FANOUT_ROUTING=broadcast), which the middleware below can hold back;
    // routed by room, a kept page's changes reach its gateway over NATS (room-routing.test.ts).
    api = await startApi(import.meta.url, (env) => ({ ...overNats('gw-a')(env), FANOUT_ROUTING: 'broadcast' }));
    // Gateway B hears group events late, so only the change's own call to every gateway can close its pages in time.
    const lateGroupEvents = {
      localEvent(next: (ctx: Context) => void | Promise<void>, event: { name?: string }) {
        if (!event.name?.startsWith('group.')) return next;
        return async (ctx: Context) => {
          await new Promise((r) => setTimeout(r, 1500));
          await next(ctx);
        };
      },
    };
    other = await startExtraNode(
      api,
      { SERVICES: 'gateway', NODE_ID: 'gw-b', PORT: '0', FANOUT_ROUTING: 'broadcast' },
      { middlewares: [lateGroupEvents] },
    );
    await other.broker.waitForServices(['group', 'chat', 'user'], 10_000);
    const gateway = other.broker.getLocalService('gateway') as unknown as { address(): AddressInfo };
    otherBase = `http://127.0.0.1:${gateway.address().port}`;
    // Node A learns of B's gateway from B's announcement: wait for it.
    const gateways = () =>
      (api.broker.registry.getServiceList({ onlyAvailable: true }) as Array<{ name: string; nodeID: string }>)
        .filter((s) => s.name === 'gateway')
        .map((s) => s.nodeID);
    const known = await eventually(
      () => Promise.resolve(gateways()),
      (ids) => ids.includes('gw-b'),
    );
    assert.deepEqual(known.sort(), ['gw-a', 'gw-b']);
  });
  after(async () => {
    await other?.stop();
    await api?.close();
  });

  const status = async (base: string, path: string) => (await fetch(base + path)).status;
  /** Both gateways answer the page and both feeds (each now keeps them). */
  const warm = async (panelId: string, expected: number) => {
    for (const base of [api.base, otherBase])
      for (const path of [`/p/${panelId}`, `/p/${panelId}/feed.atom`, `/p/${panelId}/feed.rss`])
        assert.equal(await status(base, path), expected, `${base}${path}`);
  };

  it('turns a page into a 404 on both gateways at once when its panel or group closes', async () => {
    const owner = await api.user('own');
    const group = (await api.request<Group>('POST', '/api/groups', { token: owner.token, body: { name: 'Both' } }))
      .body;
    const panel = group.panels[0]!;
    const patch = (base: string, path: string, body: unknown) =>
      fetch(base + path, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const openAll = async (base: string) => {
      assert.equal((await patch(base, `/api/groups/${group.id}`, { visibility: 'public' })).status, 200);
      assert.equal((await patch(base, `/api/groups/${group.id}/panels/${panel.id}`, { webPublic: true })).status, 200);
    };
    await api.request('POST', `/api/converses/${panel.converseId}/messages`, {
      token: owner.token,
      body: { content: 'visible for now' },
    });

    for (const [via, name] of [
      [api.base, 'A'],
      [otherBase, 'B'],
    ] as const) {
      await openAll(via);
      await warm(panel.id, 200);
      // The panel closes through one gateway: both answer 404 right after the answer.
      assert.equal((await patch(via, `/api/groups/${group.id}/panels/${panel.id}`, { webPublic: false })).status, 200);
      await warm(panel.id, 404);

      await openAll(via);
      await warm(panel.id, 200);
      // The group goes private through one gateway: the same.
      assert.equal((await patch(via, `/api/groups/${group.id}`, { visibility: 'private' })).status, 200, name);
      await warm(panel.id, 404);
    }
  });

  it("shows a message sent through one gateway on the other gateway's kept page", async () => {
    const owner = await api.user('snd');
    const group = (await api.request<Group>('POST', '/api/groups', { token: owner.token, body: { name: 'News' } }))
      .body;
    const panel = group.panels[0]!;
    await api.request('PATCH', `/api/groups/${group.id}`, { token: owner.token, body: { visibility: 'public' } });
    await api.request('PATCH', `/api/groups/${group.id}/panels/${panel.id}`, {
      token: owner.token,
      body: { webPublic: true },
    });
    assert.ok(!(await (await fetch(`${otherBase}/p/${panel.id}/feed.atom`)).text()).includes('breaking'));
    await api.request('POST', `/api/converses/${panel.converseId}/messages`, {
      token: owner.token,
      body: { content: 'breaking' },
    });
    // The event crosses NATS after the send is answered: wait for it, up to a generous deadline.
    const feed = await eventually(
      async () => (await fetch(`${otherBase}/p/${panel.id}/feed.atom`)).text(),
      (text) => text.includes('breaking'),
    );
    assert.ok(feed.includes('breaking'), "gateway B's kept feed was replaced");
  });
});
