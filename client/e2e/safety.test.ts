// Safety controls a person meets in the web client, in headless Chromium
// against the single instance (SOCKETS_PER_USER=1, OUTBOUND_ALLOW for a
// receiver on loopback, and the 24 h a failing webhook is given cut to 1 ms):
// Ann opens a second window, the first pauses and offers "Use here", which
// takes the connection back and pauses the other, which stays paused; an
// admin turns a disabled outgoing webhook back on from its notice and the
// next message reaches the receiver; a spoiler on a web-public page stays
// hidden until focused with the keyboard, and the feed leaves its words out.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, afterEach, before, describe, it } from 'node:test';
import type { Group, Message, OutgoingWebhook, OutgoingWebhookWithSecret, WebhookDelivery } from '@im/protocol';
import { type Page } from 'playwright-core';
import { api, groupWithMembers, registerAccount, type Account } from './harness/api.ts';
import { describePagesOnFailure, send } from './harness/app.ts';
import { startReceiver } from './harness/receiver.ts';
import { SHOTS } from './harness/server.ts';
import { webAppStory } from './harness/story.ts';
import { openWindow, watchPage, type Windows } from './harness/windows.ts';
import { STEP_DEADLINE_MS } from './harness/deadline.ts';

const PAUSED = 'Paused: this account is open in too many other windows.';
const SECRET_WORDS = 'the butler did it';

/** Polls `check` until it answers something truthy, or fails after `ms`. */
async function eventually<T>(what: string, check: () => Promise<T | undefined> | T | undefined, ms = 20_000) {
  const until = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > until) assert.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** The gateway's count of open sockets (`im_gateway_sockets` on /metrics, readable from loopback). */
async function openSockets(base: string): Promise<number> {
  const text = await (await fetch(`${base}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith('im_gateway_sockets '));
  assert.ok(line, 'im_gateway_sockets is on /metrics');
  return Number(line.split(' ')[1]);
}

/** Waits for a page's connection banner to be in `state`. */
const connection = (page: Page, state: string) =>
  page.getByTestId('connection').and(page.locator(`[data-state="${state}"]`));

describe('safety controls in the web client: too many windows, a disabled webhook, spoilers on the web', () => {
  const story = webAppStory(import.meta.url, {
    SOCKETS_PER_USER: '1',
    OUTBOUND_ALLOW: '127.0.0.1',
    // The 24 h of failures before a hook is turned off, shortened: its second failed delivery is past it.
    WEBHOOK_DISABLE_AFTER_MS: '1',
  });
  const windows: Windows = { pages: {}, errors: [] };
  let receiverDown = true;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  before(async () => {
    receiver = await startReceiver(() => ({ status: receiverDown ? 500 : 200 }));
  });
  after(async () => {
    await receiver?.close();
  });
  afterEach(describePagesOnFailure(() => windows.pages));

  it('pauses the older of Ann’s two windows, and "Use here" takes the connection back for good', async () => {
    const base = story.server.base;
    const ann = await registerAccount(base, 'ann');
    const bob = await registerAccount(base, 'bob');
    const { groupId, converseId } = await groupWithMembers(base, ann, 'Lookouts', [bob]);
    const path = `/g/${groupId}/${converseId}`;

    const first = await openWindow(story, windows, 'annFirst', ann, path);
    // The second window shares the first one's session (same browser context).
    const second = await first.context().newPage();
    watchPage(windows, 'annSecond', second);
    await second.goto(`${base}${path}`);
    await connection(second, 'online').waitFor({ state: 'attached' });

    const banner = first.getByTestId('connection');
    await connection(first, 'displaced').waitFor();
    assert.ok((await banner.innerText()).startsWith(PAUSED), await banner.innerText());
    await banner.getByRole('button', { name: 'Use here' }).waitFor();
    await first.screenshot({ path: join(SHOTS, 'too-many-windows.png') });

    // The second window's reconnect attempts, if it made any once paused: it must not.
    let secondSockets = 0;
    await banner.getByRole('button', { name: 'Use here' }).click();
    await connection(first, 'online').waitFor({ state: 'attached' });
    await connection(second, 'displaced').waitFor();
    second.on('websocket', () => (secondSockets += 1));
    assert.ok((await second.getByTestId('connection').innerText()).startsWith(PAUSED));

    // The first window is live again: Bob's message (sent without a socket of his own) shows there at once.
    await api<Message>(base, bob.token, 'POST', `/api/converses/${converseId}/messages`, {
      content: 'Anyone on watch?',
    });
    await first.getByTestId('message-content').filter({ hasText: 'Anyone on watch?' }).waitFor();
    // Meanwhile the paused window stayed paused: it did not connect again (which would pause the first one).
    await connection(second, 'displaced').waitFor();
    await connection(first, 'online').waitFor({ state: 'attached' });
    assert.equal(secondSockets, 0, 'the paused window opened no new socket');
    assert.equal(await openSockets(base), 1, 'Ann holds one socket');
    assert.deepEqual(windows.errors, []);
    await first.context().close();
    delete windows.pages.annFirst;
    delete windows.pages.annSecond;
  });

  it('lets an admin turn a disabled outgoing webhook back on; the next message reaches the receiver', async () => {
    const base = story.server.base;
    const olivia = await registerAccount(base, 'olivia');
    const group = await api<Group>(base, olivia.token, 'POST', '/api/groups', { name: 'Builders' });
    const converseId = group.panels[0]!.converseId;
    const made = await api<OutgoingWebhookWithSecret>(
      base,
      olivia.token,
      'POST',
      `/api/groups/${group.id}/webhooks/outgoing`,
      { url: receiver.url('/events'), name: 'Archive' },
    );
    const hooksPath = `/api/groups/${group.id}/webhooks/outgoing`;
    const deliveries = () => api<WebhookDelivery[]>(base, olivia.token, 'GET', `${hooksPath}/${made.id}/deliveries`);
    const post = (content: string) =>
      api<Message>(base, olivia.token, 'POST', `/api/converses/${converseId}/messages`, { content });

    // Setup (API): the receiver fails; its first failure starts the clock, the next one is past it.
    await post('one');
    await eventually('the first failed delivery', async () => (await deliveries())[0]?.attempts === 1);
    await post('two');
    await eventually('the hook disabled', async () => {
      const hooks = await api<OutgoingWebhook[]>(base, olivia.token, 'GET', hooksPath);
      return hooks.find((h) => h.id === made.id)?.disabled;
    });
    const failedCalls = receiver.received.length;

    const page = await openWindow(story, windows, 'olivia', olivia, `/g/${group.id}/${converseId}`);
    await page.getByRole('button', { name: 'Builders: group menu' }).click();
    await page.getByRole('menuitem', { name: 'Group settings' }).click();
    const settings = page.getByRole('dialog', { name: 'Builders settings' });
    await settings.getByRole('tab', { name: 'Integrations' }).click();
    const row = settings.getByTestId('outgoing-row').filter({ hasText: 'Archive' });
    await row.waitFor();
    assert.equal(await row.getAttribute('data-disabled'), 'true');
    const notice = row.getByTestId('hook-disabled');
    await notice.getByText(/Nothing is sent to it/).waitFor();
    await row.screenshot({ path: join(SHOTS, 'webhook-disabled.png') });

    receiverDown = false;
    await notice.getByRole('button', { name: 'Turn back on Archive' }).click();
    await notice.waitFor({ state: 'detached' });
    assert.equal(await row.getAttribute('data-disabled'), 'false');
    assert.equal(await row.locator('.state-tag.off').count(), 0, 'no "disabled" tag left');
    await page.keyboard.press('Escape');
    await settings.waitFor({ state: 'detached' });

    await send(page, 'Back in business');
    const got = await eventually('the next message at the receiver', () =>
      receiver.received.slice(failedCalls).find((r) => r.raw.includes('Back in business')),
    );
    assert.equal((JSON.parse(got.raw) as { message: Message }).message.content, 'Back in business');
    await eventually('the delivery logged as delivered', async () => (await deliveries())[0]?.status === 'delivered');
    assert.deepEqual(windows.errors, []);
    await page.context().close();
    delete windows.pages.olivia;
  });

  it('keeps a spoiler hidden on a web-public page until it is focused, and out of the feed', async () => {
    const base = story.server.base;
    const owner: Account = await registerAccount(base, 'paula');
    const group = await api<Group>(base, owner.token, 'POST', '/api/groups', { name: 'Mystery club' });
    await api(base, owner.token, 'PATCH', `/api/groups/${group.id}`, { visibility: 'public' });
    const panel = group.panels[0]!;
    await api(base, owner.token, 'PATCH', `/api/groups/${group.id}/panels/${panel.id}`, { webPublic: true });
    await api<Message>(base, owner.token, 'POST', `/api/converses/${panel.converseId}/messages`, {
      content: `Finished the book: ||${SECRET_WORDS}|| and nobody guessed`,
    });

    const context = await story.browser.newContext({ viewport: { width: 1280, height: 800 } });
    context.setDefaultTimeout(STEP_DEADLINE_MS);
    const visitor = await context.newPage();
    visitor.on('pageerror', (err) => windows.errors.push(`visitor: ${err.message}`));
    windows.pages.visitor = visitor;
    const res = await visitor.goto(`${base}/p/${panel.id}`);
    assert.equal(res?.status(), 200);
    const spoiler = visitor.locator('.spoiler');
    await spoiler.waitFor();
    assert.equal(await spoiler.textContent(), SECRET_WORDS, 'the words are on the page, for whoever asks');

    const colors = () =>
      spoiler.evaluate((el) => ({
        text: getComputedStyle(el).color,
        body: getComputedStyle(document.body).color,
      }));
    const hidden = await colors();
    assert.equal(hidden.text, 'rgba(0, 0, 0, 0)', 'unfocused, its words are transparent');
    // Nothing of the words leaks into what link previews read.
    const description = await visitor.locator('meta[name="description"]').getAttribute('content');
    assert.ok(description && !description.includes(SECRET_WORDS), `description: ${description}`);
    await visitor.screenshot({ path: join(SHOTS, 'public-spoiler-hidden.png') });

    // Tab through the page's links to the spoiler (a bounded number of steps).
    for (let step = 0; step < 10; step++) {
      await visitor.keyboard.press('Tab');
      if (await spoiler.evaluate((el) => document.activeElement === el)) break;
    }
    assert.ok(await spoiler.evaluate((el) => document.activeElement === el), 'Tab reaches the spoiler');
    const shown = await colors();
    assert.equal(shown.text, shown.body, 'focused, its words take the page colour');
    await visitor.screenshot({ path: join(SHOTS, 'public-spoiler-shown.png') });

    const feed = await visitor.request.get(`${base}/p/${panel.id}/feed.atom`);
    assert.equal(feed.status(), 200);
    const atom = await feed.text();
    assert.match(atom, /Finished the book/);
    assert.ok(atom.includes('[spoiler]'), 'the feed marks the spoiler');
    assert.ok(!atom.includes(SECRET_WORDS), 'the feed leaves its words out');
    assert.deepEqual(windows.errors, []);
    await context.close();
  });
});
