import assert from 'node:assert/strict';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Group, OutgoingWebhook, OutgoingWebhookWithSecret, WebhookDelivery } from '@im/protocol';
import { eventually, expectations, startApi, type ApiHarness } from '../api/harness.ts';

/** Answers the first request 500 at once and holds every later one until the test answers it. */
function holdingReceiver() {
  const held: ServerResponse[] = [];
  let arrived: () => void = () => undefined;
  let count = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      count += 1;
      if (count === 1) res.writeHead(500).end();
      else {
        held.push(res);
        arrived();
      }
    });
  });
  return {
    held,
    next: () => new Promise<void>((resolve) => (arrived = resolve)),
    start: () =>
      new Promise<string>((resolve) =>
        server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`)),
      ),
    close: () => {
      for (const res of held) if (!res.writableEnded) res.writeHead(500).end();
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe('an outgoing webhook turned on again while an attempt is under way', () => {
  let api: ApiHarness;
  const receiver = holdingReceiver();
  let url = '';
  before(async () => {
    url = await receiver.start();
    api = await startApi(import.meta.url, { OUTBOUND_ALLOW: '127.0.0.1', WEBHOOK_DISABLE_AFTER_MS: '1' });
  });
  after(async () => {
    await receiver.close();
    await api.close();
  });
  const { ok } = expectations(() => api);

  it('is not disabled by that attempt failing on the failing clock the admin reset', async () => {
    const owner = await api.user('re');
    const group = await ok<Group>('POST', '/api/groups', owner, { name: 'Race' }, 201);
    const converseId = group.panels[0]!.converseId;
    const hook = await ok<OutgoingWebhookWithSecret>(
      'POST',
      `/api/groups/${group.id}/webhooks/outgoing`,
      owner,
      { url },
      201,
    );
    const hooks = () => ok<OutgoingWebhook[]>('GET', `/api/groups/${group.id}/webhooks/outgoing`, owner);
    await ok('POST', `/api/converses/${converseId}/messages`, owner, { content: 'first' }, 201);
    await eventually(hooks, (list) => list[0]?.failingSince !== undefined);

    const heldArrived = receiver.next();
    await ok('POST', `/api/converses/${converseId}/messages`, owner, { content: 'second' }, 201);
    await heldArrived; // its attempt started with the hook failing since the first
    // The admin looks at the receiver, finds it fixed, and starts the hook afresh.
    await ok('PATCH', `/api/groups/${group.id}/webhooks/outgoing/${hook.id}`, owner, { disabled: false });
    receiver.held[0]!.writeHead(500).end();
    const log = await eventually(
      () => ok<WebhookDelivery[]>('GET', `/api/groups/${group.id}/webhooks/outgoing/${hook.id}/deliveries`, owner),
      (l) => l.length === 2 && l.every((d) => d.attempts >= 1),
    );
    assert.notEqual(log[0]!.status, 'dropped', JSON.stringify(log[0]));
    assert.equal((await hooks())[0]!.disabled, false, 'one failure after a fresh start does not disable it');
  });
});
