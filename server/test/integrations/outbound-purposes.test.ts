import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Group, Message, OutgoingWebhookWithSecret, WebhookDelivery } from '@im/protocol';
import { eventually, expectations, startApi, type ApiErrorBody, type ApiHarness } from '../api/harness.ts';
import { browserSubscription } from '../push/push-endpoint.ts';
import { startReceiver } from './receiver.ts';

/** The outbound guard's refusals counted for one purpose (im_outbound_refused_total). */
const refusedFor = async (base: string, purpose: string) =>
  Number(
    new RegExp(`^im_outbound_refused_total\\{purpose="${purpose}"\\} (\\d+)`, 'm').exec(
      await (await fetch(`${base}/metrics`)).text(),
    )?.[1] ?? 0,
  );

/** A page with a title, on loopback: what a link preview would fetch. */
async function startPage() {
  let hits = 0;
  const server: Server = createServer((_req, res) => {
    hits += 1;
    res.writeHead(200, { 'content-type': 'text/html' }).end('<html><head><title>Inside</title></head></html>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/page`,
    hits: () => hits,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Each kind of outbound request has its own allow list (OUTBOUND_ALLOW_PUSH,
 * _WEBHOOKS, _PREVIEWS; OUTBOUND_ALLOW is the default of each), and a
 * refusal says nothing about what a name resolves to.
 */
describe('outbound guard: one allow list per purpose, refusals that tell nothing', () => {
  let api: ApiHarness;
  let page: Awaited<ReturnType<typeof startPage>>;
  let hook: Awaited<ReturnType<typeof startReceiver>>;
  const { ok, refused } = expectations(() => api);
  before(async () => {
    page = await startPage();
    hook = await startReceiver();
    // Loopback is opened for webhooks only.
    api = await startApi(import.meta.url, { OUTBOUND_ALLOW_WEBHOOKS: '127.0.0.1' });
  });
  after(async () => {
    await api.close();
    await hook.close();
    await page.close();
  });

  it('opens loopback to webhooks only: push and link previews keep refusing it', async () => {
    const owner = await api.user('og');
    const group = await ok<Group>('POST', '/api/groups', owner, { name: 'Purposes' }, 201);
    const created = await ok<OutgoingWebhookWithSecret>(
      'POST',
      `/api/groups/${group.id}/webhooks/outgoing`,
      owner,
      { url: hook.url },
      201,
    );
    await refused(
      'POST',
      '/api/push/subscriptions',
      owner,
      400,
      'IM_ERR_VALIDATION',
      browserSubscription(`http://127.0.0.1:${new URL(hook.url).port}/push`).json,
    );

    const before = await refusedFor(api.base, 'previews');
    const sent = await ok<Message>(
      'POST',
      `/api/converses/${group.panels[0]!.converseId}/messages`,
      owner,
      { content: `see ${page.url}` },
      201,
    );
    // The webhook gets the message; the preview fetch is refused by the guard.
    const log = await eventually(
      () => ok<WebhookDelivery[]>('GET', `/api/groups/${group.id}/webhooks/outgoing/${created.id}/deliveries`, owner),
      (l) => l[0]?.status === 'delivered',
    );
    assert.equal(log[0]?.status, 'delivered');
    assert.equal(
      await eventually(
        () => refusedFor(api.base, 'previews'),
        (n) => n > before,
      ),
      before + 1,
    );
    assert.equal(page.hits(), 0, 'the preview never reached the page');
    const [message] = await ok<Message[]>(
      'GET',
      `/api/converses/${group.panels[0]!.converseId}/messages?limit=1`,
      owner,
    );
    assert.equal(message!.id, sent.id);
    assert.equal(message!.preview, undefined);
  });
});

describe('outbound guard: a purpose of its own replaces OUTBOUND_ALLOW', () => {
  let api: ApiHarness;
  let hook: Awaited<ReturnType<typeof startReceiver>>;
  const { ok, refused } = expectations(() => api);
  before(async () => {
    hook = await startReceiver();
    api = await startApi(import.meta.url, { OUTBOUND_ALLOW: '127.0.0.1', OUTBOUND_ALLOW_WEBHOOKS: '' });
  });
  after(async () => {
    await api.close();
    await hook.close();
  });

  it('refuses a name resolving inside and a name that does not resolve with the same answer', async () => {
    const owner = await api.user('og');
    const group = await ok<Group>('POST', '/api/groups', owner, { name: 'Oracle' }, 201);
    const port = new URL(hook.url).port;
    const answers: ApiErrorBody[] = [];
    for (const url of [
      `http://localhost:${port}/hook`, // resolves to loopback
      'http://no-such-host.invalid/hook', // does not resolve
      'http://10.1.2.3/hook', // an inside address given as such
    ])
      answers.push(
        await refused('POST', `/api/groups/${group.id}/webhooks/outgoing`, owner, 400, 'IM_ERR_VALIDATION', { url }),
      );
    assert.deepEqual(answers[1], answers[0]);
    assert.deepEqual(answers[2], answers[0]);
    assert.doesNotMatch(JSON.stringify(answers[0]), /127\.0\.0\.1|::1|resolve/);
  });

  it('an empty OUTBOUND_ALLOW_WEBHOOKS closes webhooks while OUTBOUND_ALLOW still opens push', async () => {
    const owner = await api.user('og');
    const group = await ok<Group>('POST', '/api/groups', owner, { name: 'Closed' }, 201);
    await refused('POST', `/api/groups/${group.id}/webhooks/outgoing`, owner, 400, 'IM_ERR_VALIDATION', {
      url: hook.url,
    });
    const sub = browserSubscription(`http://127.0.0.1:${new URL(hook.url).port}/push`).json;
    assert.equal((await api.request('POST', '/api/push/subscriptions', { token: owner.token, body: sub })).status, 201);
  });
});
