import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type {
  Group,
  HookPosted,
  IncomingWebhook,
  IncomingWebhookWithUrl,
  Message,
  OutgoingWebhook,
  OutgoingWebhookWithSecret,
  WebhookDelivery,
  WebhookEventBody,
} from '@im/protocol';
import { eventually, expectations, startApi, type ApiHarness } from '../api/harness.ts';
import { until } from '../realtime/client.ts';
import { receiverPool } from './receiver.ts';

/**
 * Incoming and outgoing webhooks against the single instance, with
 * receivers on loopback (allowed by OUTBOUND_ALLOW, as in tests only).
 */
describe('webhooks', () => {
  let api: ApiHarness;
  const { start: receiver, closeAll } = receiverPool();
  before(async () => {
    api = await startApi(import.meta.url, { OUTBOUND_ALLOW: '127.0.0.1' });
  });
  after(async () => {
    await closeAll();
    await api.close();
  });
  const { ok, refused } = expectations(() => api);
  const setUp = async () => {
    const owner = await api.user('wh');
    const group = await ok<Group>('POST', '/api/groups', owner, { name: 'Hooks' }, 201);
    return { owner, group, panel: group.panels[0]!, converseId: group.panels[0]!.converseId };
  };
  const history = (converseId: string, user: { token: string }) =>
    ok<Message[]>('GET', `/api/converses/${converseId}/messages`, user);
  /** The hook's newest log entry, once it is delivered (or as it stands after a while). */
  const latestDelivery = async (groupId: string, hookId: string, user: { token: string }) =>
    (
      await eventually(
        () => ok<WebhookDelivery[]>('GET', `/api/groups/${groupId}/webhooks/outgoing/${hookId}/deliveries`, user),
        (log) => log[0]?.status === 'delivered',
        2_500,
      )
    )[0];
  const post = (path: string, body: unknown) => api.request<HookPosted>('POST', path, { body });

  it('incoming: posts Slack-style text into its panel as its bot, under a username if given', async () => {
    const { owner, group, panel, converseId } = await setUp();
    const hook = await ok<IncomingWebhookWithUrl>(
      'POST',
      `/api/groups/${group.id}/webhooks/incoming`,
      owner,
      { panelId: panel.id, name: 'CI' },
      201,
    );
    assert.match(hook.url, /^\/hooks\/[0-9a-f]{24}\/[A-Za-z0-9_-]{43}$/);
    const first = await post(hook.url, { text: 'Build #12 passed', username: 'Jenkins' });
    assert.equal(first.status, 200);
    const second = await post(hook.url, { content: 'plain content field' });
    assert.equal(second.status, 200);
    const [a, b] = (await history(converseId, owner)).slice(-2);
    assert.equal(a!.id, first.body.messageId);
    assert.deepEqual([a!.content, a!.username, a!.authorId], ['Build #12 passed', 'Jenkins', hook.botId]);
    assert.deepEqual([b!.content, b!.username], ['plain content field', undefined]);

    const wrong = hook.url.replace(/\/[^/]+$/, `/${'A'.repeat(43)}`);
    assert.equal((await post(wrong, { text: 'x' })).status, 404);
    assert.equal((await post(hook.url, {})).status, 400);
    assert.equal((await post(hook.url, { text: 'x', username: 5 })).status, 400);

    const rotated = await ok<IncomingWebhookWithUrl>(
      'POST',
      `/api/groups/${group.id}/webhooks/incoming/${hook.id}/secret`,
      owner,
    );
    assert.notEqual(rotated.url, hook.url);
    assert.equal((await post(hook.url, { text: 'old url' })).status, 404);
    assert.equal((await post(rotated.url, { text: 'new url' })).status, 200);
    // The list names the hook but never shows its URL (the secret): create and renewal only.
    const listed = await ok<IncomingWebhook[]>('GET', `/api/groups/${group.id}/webhooks/incoming`, owner);
    assert.deepEqual(
      listed.map((h) => h.id),
      [hook.id],
    );
    assert.ok(listed.every((h) => !('url' in h)));
    await ok('DELETE', `/api/groups/${group.id}/webhooks/incoming/${hook.id}`, owner, undefined, 204);
    assert.equal((await post(rotated.url, { text: 'gone' })).status, 404);
    await refused('POST', `/api/groups/${group.id}/webhooks/incoming`, owner, 404, 'IM_ERR_NOT_FOUND', {
      panelId: '0'.repeat(24),
      name: 'x',
    });
  });

  it('incoming: Slack attachments, blocks and extra fields are shown as Markdown; a wrong id or secret of any shape is 404', async () => {
    const { owner, group, panel, converseId } = await setUp();
    const hook = await ok<IncomingWebhookWithUrl>(
      'POST',
      `/api/groups/${group.id}/webhooks/incoming`,
      owner,
      { panelId: panel.id, name: 'Slack' },
      201,
    );
    const posted = await post(hook.url, {
      channel: '#ignored',
      icon_emoji: ':ghost:',
      mrkdwn: true,
      text: 'Deploy <https://ci.example/7|#7> :rocket:',
      attachments: [
        {
          fallback: 'Deploy done',
          color: '#36a64f',
          title: 'Production',
          title_link: 'https://ci.example/prod',
          fields: [{ title: 'Version', value: '1.2.3', short: true }],
        },
      ],
    });
    assert.equal(posted.status, 200);
    const onlyBlocks = await post(hook.url, {
      blocks: [{ type: 'section', text: { type: 'mrkdwn', text: '*Ready*' } }],
    });
    assert.equal(onlyBlocks.status, 200);
    const [a, b] = (await history(converseId, owner)).slice(-2);
    assert.equal(a!.id, posted.body.messageId);
    assert.equal(
      a!.content,
      'Deploy [#7](https://ci.example/7) 🚀\n\n> **[Production](https://ci.example/prod)**\n>\n> **Version**: 1.2.3',
    );
    assert.equal(b!.content, '**Ready**');
    // Nothing to show is refused as before.
    assert.equal((await post(hook.url, { attachments: [{}] })).status, 400);

    const [, , hookId, secret] = hook.url.split('/');
    for (const wrong of [
      `/hooks/${hookId}/short`,
      `/hooks/${hookId}/${secret}x`,
      `/hooks/${hookId}/${'y'.repeat(100)}`,
      `/hooks/not-an-id/${secret}`,
      `/hooks/${'0'.repeat(24)}/${secret}`,
    ]) {
      const answer = await api.request<{ error: { code: string } }>('POST', wrong, { body: { text: 'x' } });
      assert.deepEqual([wrong, answer.status, answer.body.error.code], [wrong, 404, 'IM_ERR_NOT_FOUND']);
    }
  });

  it('outgoing: a refused address is refused at creation', async () => {
    const { owner, group } = await setUp();
    for (const url of ['http://10.1.2.3/hook', 'http://169.254.169.254/latest', 'ftp://example.com/x', 'not a url'])
      await refused('POST', `/api/groups/${group.id}/webhooks/outgoing`, owner, 400, 'IM_ERR_VALIDATION', { url });
  });

  it('outgoing: signed deliveries the receiver can verify; its text answer posted by the hook bot, never sent back', async () => {
    const { owner, group, converseId } = await setUp();
    const rx = await receiver(() => ({ status: 200, body: { text: 'Ticket 42 opened' } }));
    const hook = await ok<OutgoingWebhookWithSecret>(
      'POST',
      `/api/groups/${group.id}/webhooks/outgoing`,
      owner,
      { url: rx.url, name: 'Tracker' },
      201,
    );
    const sent = await ok<Message>(
      'POST',
      `/api/converses/${converseId}/messages`,
      owner,
      { content: 'open a ticket' },
      201,
    );
    await until('the delivery', () => rx.received.length === 1, 10_000);
    const { headers, raw } = rx.received[0]!;
    const expected = `sha256=${createHmac('sha256', hook.secret).update(raw).digest('hex')}`;
    assert.equal(headers['x-im-signature'], expected);
    const body = JSON.parse(raw) as WebhookEventBody;
    assert.equal(body.event, 'message.created');
    assert.equal(body.message.id, sent.id);
    assert.equal(body.groupId, group.id);
    assert.equal(body.converseId, converseId);
    assert.equal(headers['x-im-delivery'], body.deliveryId);
    assert.equal(headers['x-im-timestamp'], String(body.timestamp));
    assert.ok(Math.abs(body.timestamp - Date.now() / 1000) < 30);

    // The answer is posted by the hook's bot, and that post is not delivered again.
    const answer = await eventually(
      async () => (await history(converseId, owner)).find((m) => m.content === 'Ticket 42 opened'),
      (found) => found !== undefined,
    );
    assert.equal(answer?.authorId, hook.botId);
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(rx.received.length, 1);

    const log = await ok<WebhookDelivery[]>(
      'GET',
      `/api/groups/${group.id}/webhooks/outgoing/${hook.id}/deliveries`,
      owner,
    );
    assert.deepEqual(
      log.map((d) => [d.id, d.status, d.attempts, d.responseStatus]),
      [[body.deliveryId, 'delivered', 1, 200]],
    );
    // The list never shows the secret.
    const listed = await ok<OutgoingWebhook[]>('GET', `/api/groups/${group.id}/webhooks/outgoing`, owner);
    assert.equal((listed[0] as Partial<OutgoingWebhookWithSecret>).secret, undefined);
  });

  it('outgoing: a receiver answering 500 once gets the same delivery again within 30 s', async () => {
    const { owner, group, converseId } = await setUp();
    const rx = await receiver((_req, i) => ({ status: i === 0 ? 500 : 204 }));
    const hook = await ok<OutgoingWebhookWithSecret>(
      'POST',
      `/api/groups/${group.id}/webhooks/outgoing`,
      owner,
      { url: rx.url },
      201,
    );
    await ok('POST', `/api/converses/${converseId}/messages`, owner, { content: 'retry me' }, 201);
    await until('the first attempt', () => rx.received.length === 1, 10_000);
    // The attempt's outcome is written just after the receiver answered: wait for it.
    const log = await eventually(
      () => ok<WebhookDelivery[]>('GET', `/api/groups/${group.id}/webhooks/outgoing/${hook.id}/deliveries`, owner),
      (l) => l[0]?.responseStatus === 500,
    );
    assert.equal(log[0]!.status, 'retrying');
    assert.equal(log[0]!.responseStatus, 500);
    assert.ok(log[0]!.nextAttemptAt);
    await until('the retry', () => rx.received.length === 2, 30_000);
    const [first, second] = rx.received;
    assert.ok(second!.at - first!.at <= 30_000);
    assert.equal(first!.headers['x-im-delivery'], second!.headers['x-im-delivery']);
    assert.equal(
      (JSON.parse(first!.raw) as WebhookEventBody).deliveryId,
      (JSON.parse(second!.raw) as WebhookEventBody).deliveryId,
    );
    const done = await latestDelivery(group.id, hook.id, owner);
    assert.deepEqual([done?.status, done?.attempts, done?.responseStatus], ['delivered', 2, 204]);
  });

  it('outgoing: only the chosen panel, only messages starting with a trigger word, and no bot messages', async () => {
    const { owner, group, panel, converseId } = await setUp();
    const other = await ok<{ converseId: string }>(
      'POST',
      `/api/groups/${group.id}/panels`,
      owner,
      { name: 'other', type: 'text' },
      201,
    );
    const rx = await receiver();
    await ok(
      'POST',
      `/api/groups/${group.id}/webhooks/outgoing`,
      owner,
      { url: rx.url, panelId: panel.id, triggerWords: ['!deploy', '!status'] },
      201,
    );
    const incoming = await ok<IncomingWebhookWithUrl>(
      'POST',
      `/api/groups/${group.id}/webhooks/incoming`,
      owner,
      { panelId: panel.id, name: 'feed' },
      201,
    );
    await ok('POST', `/api/converses/${converseId}/messages`, owner, { content: 'just chatting' }, 201);
    await ok('POST', `/api/converses/${other.converseId}/messages`, owner, { content: '!deploy elsewhere' }, 201);
    await post(incoming.url, { text: '!deploy from a bot' });
    await ok('POST', `/api/converses/${converseId}/messages`, owner, { content: '!status please' }, 201);
    await until('the delivery', () => rx.received.length >= 1, 10_000);
    await new Promise((r) => setTimeout(r, 500));
    assert.deepEqual(
      rx.received.map((r) => (JSON.parse(r.raw) as WebhookEventBody).message.content),
      ['!status please'],
    );
  });
});
