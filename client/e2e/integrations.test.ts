// Integrations in the web client, in headless Chromium against the single
// instance (OUTBOUND_ALLOW lets it call receivers on loopback): Olivia makes
// a bot and sees its token once; makes an incoming webhook, through which
// the test posts as "Jenkins" (shown with "via" and a BOT badge); makes an
// outgoing webhook whose receiver gets her message, signed with the secret
// shown once, and sees the delivery in its log; makes a slash command that
// the composer suggests and whose answer only she sees; and acts with /me.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { join } from 'node:path';
import { after, afterEach, before, describe, it } from 'node:test';
import type { Bot, Group, Message, PublicUser } from '@im/protocol';
import { type Locator, type Page } from 'playwright-core';
import { api } from './harness/api.ts';
import { collectPageErrors, describePagesOnFailure, messageTexts, register, send } from './harness/app.ts';
import { startReceiver, type Received } from './harness/receiver.ts';
import { SHOTS } from './harness/server.ts';
import { webAppStory } from './harness/story.ts';
import { STEP_DEADLINE_MS } from './harness/deadline.ts';

const DEPLOY_ANSWER = 'Deployed staging to the test servers';

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

/** Whether a request carries `X-IM-Signature` made with `secret` over its exact body. */
function signedWith(req: Received, secret: string): boolean {
  const expected = `sha256=${createHmac('sha256', secret).update(req.raw).digest('hex')}`;
  return req.headers['x-im-signature'] === expected;
}

describe('integrations in the web client: bots, webhooks, slash commands', () => {
  const story = webAppStory(import.meta.url, { OUTBOUND_ALLOW: '127.0.0.1' });
  const pages: Record<string, Page> = {};
  const pageErrors: string[] = [];
  let events: Awaited<ReturnType<typeof startReceiver>>;
  let commandServer: Awaited<ReturnType<typeof startReceiver>>;
  const workingSeen = Promise.withResolvers<void>();
  let page: Page;
  let token: string;
  let groupId: string;
  let converseId: string;

  before(async () => {
    events = await startReceiver();
    commandServer = await startReceiver(async (req) => {
      if (req.path === '/broken') return { status: 500 };
      // The answer waits until the test has seen the composer's "working…" line (the
      // server gives a command 3 s), so that line is never raced by a quick answer.
      await workingSeen.promise;
      return { body: { text: DEPLOY_ANSWER } };
    });
  });
  after(async () => {
    await events?.close();
    await commandServer?.close();
  });
  afterEach(describePagesOnFailure(() => pages));

  /** Opens the group's settings on the Integrations tab. */
  const integrations = async (): Promise<Locator> => {
    await page.getByRole('button', { name: 'Builders: group menu' }).click();
    await page.getByRole('menuitem', { name: 'Group settings' }).click();
    const settings = page.getByRole('dialog', { name: 'Builders settings' });
    await settings.getByRole('tab', { name: 'Integrations' }).click();
    return settings;
  };
  const closeSettings = async (settings: Locator) => {
    await page.keyboard.press('Escape');
    await settings.waitFor({ state: 'detached' });
  };

  it('lets Olivia make a bot and shows its token once', async () => {
    const context = await story.browser.newContext({ viewport: { width: 1280, height: 900 } });
    context.setDefaultTimeout(STEP_DEADLINE_MS);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: story.server.base });
    page = await context.newPage();
    pages.olivia = page;
    collectPageErrors(page, 'olivia', pageErrors);
    await register(page, story.server.base, 'olivia');
    token = (await page.evaluate(() => localStorage.getItem('im.token')))!;
    await page.getByRole('button', { name: 'Create a group' }).first().click();
    await page.getByLabel('Group name').fill('Builders');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.getByTestId('converse-title').filter({ hasText: '#general' }).waitFor();
    [, , groupId] = new URL(page.url()).pathname.split('/') as [string, string, string];
    const group = await api<Group>(story.server.base, token, 'GET', `/api/groups/${groupId}`);
    converseId = group.panels[0]!.converseId;

    const settings = await integrations();
    const bots = settings.getByRole('region', { name: 'Bots' });
    await bots.getByText('No bots yet.').waitFor();
    await bots.getByLabel('Bot name').fill('Deployer');
    await bots.getByRole('button', { name: 'Create bot' }).click();
    const shown = bots.getByTestId('bot-token');
    await shown.waitFor();
    const botToken = await shown.inputValue();
    assert.ok(botToken.length > 20, 'a token is shown');
    await bots.getByText(/shown only this once/).waitFor();
    await bots.getByRole('button', { name: 'Copy token for deployer' }).click();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), botToken);
    const row = bots.getByTestId('bot-row').filter({ hasText: 'Deployer' });
    await row.getByTestId('bot-badge').waitFor();
    await page.screenshot({ path: join(SHOTS, 'integrations-bot.png') });

    // The row names the bot by its username, and the token works for it within the group.
    const listed = await api<Bot[]>(story.server.base, token, 'GET', `/api/groups/${groupId}/bots`);
    const deployer = listed.find((b) => b.nickname === 'Deployer');
    assert.ok(deployer, 'the bot is listed');
    assert.match(await row.innerText(), new RegExp(`@${deployer.username}`));
    await api<Group>(story.server.base, botToken, 'GET', `/api/groups/${groupId}`);
    const seen = await api<PublicUser>(story.server.base, token, 'GET', `/api/users/${deployer.id}`);
    assert.equal(seen.bot, true);

    await bots.getByRole('button', { name: 'Done' }).click();
    await shown.waitFor({ state: 'detached' });
    await closeSettings(settings);
    // Shown once: opened again, the tab lists the bot but no token.
    const again = await integrations();
    await again.getByTestId('bot-row').filter({ hasText: 'Deployer' }).waitFor();
    assert.equal(await again.getByTestId('bot-token').count(), 0);
    await closeSettings(again);
  });

  it('posts through an incoming webhook under a name, shown with "via" and a BOT badge', async () => {
    const settings = await integrations();
    const create = settings.getByRole('form', { name: 'Create an incoming webhook' });
    await create.getByLabel('Panel').selectOption({ label: '#general' });
    await create.getByLabel('Name').fill('CI');
    await create.getByRole('button', { name: 'Create incoming webhook' }).click();
    const row = settings.getByTestId('incoming-row').filter({ hasText: 'CI' });
    const url = await row.getByLabel('Webhook URL').inputValue();
    assert.match(url, new RegExp(`^${story.server.base}/hooks/[^/]+/[^/]+$`));
    assert.equal(
      await row.getByTestId('curl-example').innerText(),
      `curl -X POST -H 'content-type: application/json' -d '{"text":"Hello"}' ${url}`,
    );
    await closeSettings(settings);

    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'Build 42 passed', username: 'Jenkins' }),
    });
    assert.equal(res.status, 200, await res.text());

    const posted = page.getByTestId('message').filter({ hasText: 'Build 42 passed' });
    await posted.waitFor();
    await posted
      .locator('.author')
      .filter({ hasText: /^Jenkins$/ })
      .waitFor();
    assert.match(await posted.getByTestId('via').innerText(), /^via \S/);
    assert.equal(await posted.getByTestId('bot-badge').innerText(), 'BOT');
    await page.screenshot({ path: join(SHOTS, 'incoming-webhook.png') });

    // Shown once: opened again, the list has the hook but not its address.
    const again = await integrations();
    const listed = again.getByTestId('incoming-row').filter({ hasText: 'CI' });
    await listed.getByTestId('address-hidden').waitFor();
    assert.equal(await listed.getByLabel('Webhook URL').count(), 0);
    await closeSettings(again);
  });

  it('sends new messages to an outgoing webhook, signed, and shows the delivery in its log', async () => {
    let settings = await integrations();
    const create = settings.getByRole('form', { name: 'Create an outgoing webhook' });
    await create.getByLabel('URL').fill(events.url('/events'));
    await create.getByLabel(/^Name/).fill('Archive');
    assert.equal(await create.getByLabel('Panel').inputValue(), '', 'all panels by default');
    await create.getByRole('button', { name: 'Create outgoing webhook' }).click();
    const secret = await settings.getByLabel('Signing secret for Archive', { exact: true }).inputValue();
    assert.ok(secret.length > 20);
    await settings
      .getByRole('group', { name: /Signing secret for Archive/ })
      .getByRole('button', { name: 'Done' })
      .click();
    await closeSettings(settings);

    await send(page, 'Ship it');
    const got = await eventually('the outgoing webhook request', () =>
      events.received.find((r) => r.raw.includes('Ship it')),
    );
    const body = JSON.parse(got.raw) as { event: string; converseId: string; message: Message };
    assert.equal(body.event, 'message.created');
    assert.equal(body.converseId, converseId);
    assert.equal(body.message.content, 'Ship it');
    assert.ok(signedWith(got, secret), 'signed with the secret the app showed');

    settings = await integrations();
    const row = settings.getByTestId('outgoing-row').filter({ hasText: 'Archive' });
    await row.getByRole('button', { name: 'Deliveries' }).click();
    const log = row.getByTestId('delivery-log');
    await log.waitFor();
    await eventually('a delivered entry in the log', async () => {
      if ((await log.locator('[data-testid="delivery"][data-status="delivered"]').count()) > 0) return true;
      await log.getByRole('button', { name: 'Refresh deliveries' }).click();
      return undefined;
    });
    const delivered = log.locator('[data-testid="delivery"][data-status="delivered"]').first();
    assert.equal(await delivered.locator('.state-tag').innerText(), 'delivered');
    await page.screenshot({ path: join(SHOTS, 'outgoing-webhook-deliveries.png') });
    await closeSettings(settings);
  });

  it('suggests a slash command with its description and shows its answer to Olivia alone', async () => {
    const settings = await integrations();
    const create = settings.getByRole('form', { name: 'Create a command' });
    await create.getByLabel('Trigger').fill('deploy');
    await create.getByLabel('URL').fill(commandServer.url('/deploy'));
    await create.getByLabel(/^Description/).fill('Ship the main branch');
    await create.getByRole('button', { name: 'Create command' }).click();
    const secret = await settings.getByLabel('Signing secret for /deploy', { exact: true }).inputValue();
    await settings.getByTestId('command-row').filter({ hasText: '/deploy' }).waitFor();
    await closeSettings(settings);

    const box = page.getByRole('textbox', { name: 'Message' });
    await box.click();
    await box.pressSequentially('/');
    const menu = page.getByRole('listbox', { name: 'Commands' });
    const option = menu.getByRole('option').filter({ hasText: '/deploy' });
    await option.waitFor();
    assert.match(await option.innerText(), /Ship the main branch/);
    await menu.getByRole('option').filter({ hasText: '/me' }).waitFor();
    await page.screenshot({ path: join(SHOTS, 'slash-command-suggestions.png') });
    await box.pressSequentially('dep');
    await box.press('Tab');
    assert.equal(await box.inputValue(), '/deploy ');
    await box.pressSequentially('staging');
    await box.press('Enter');
    // While it runs: a greyed line, and no pending message (nothing will be stored).
    await page.getByTestId('command-note').filter({ hasText: '/deploy is working…' }).waitFor();
    assert.equal(await page.locator('[data-pending]').count(), 0);
    workingSeen.resolve();

    const answer = page.getByTestId('ephemeral-message');
    await answer.filter({ hasText: DEPLOY_ANSWER }).waitFor();
    await answer.getByText(/Only you can see this/).waitFor();
    await page.getByTestId('command-note').waitFor({ state: 'detached' });
    await page.screenshot({ path: join(SHOTS, 'slash-command-answer.png') });

    const call = commandServer.received.at(-1)!;
    const sent = JSON.parse(call.raw) as { command: string; text: string; converseId: string };
    assert.deepEqual([sent.command, sent.text, sent.converseId], ['deploy', 'staging', converseId]);
    assert.ok(signedWith(call, secret), 'signed with the secret the app showed');
    // Nothing stored, and no pending copy left behind.
    assert.ok(!(await messageTexts(page)).some((t) => t.includes('/deploy')));
    const history = await api<Message[]>(story.server.base, token, 'GET', `/api/converses/${converseId}/messages`);
    assert.ok(!history.some((m) => m.content.includes('/deploy') || m.content.includes(DEPLOY_ANSWER)));

    await answer.getByRole('button', { name: 'Dismiss' }).click();
    await answer.waitFor({ state: 'detached' });
  });

  it("says clearly when a command's service fails", async () => {
    const settings = await integrations();
    const create = settings.getByRole('form', { name: 'Create a command' });
    await create.getByLabel('Trigger').fill('broken');
    await create.getByLabel('URL').fill(commandServer.url('/broken'));
    await create.getByRole('button', { name: 'Create command' }).click();
    await settings.getByTestId('command-row').filter({ hasText: '/broken' }).waitFor();
    await closeSettings(settings);

    await send(page, '/broken now');
    const note = page.getByTestId('command-note').filter({ hasText: '/broken failed.' });
    await note.waitFor();
    assert.equal(await note.getAttribute('data-status'), 'failed');
    await note.getByRole('alert').waitFor();
    await note.getByRole('button', { name: /^Dismiss/ }).click();
    await note.waitFor({ state: 'detached' });
    assert.equal(await page.locator('[data-pending]').count(), 0);
  });

  it('shows /me as an action in italics', async () => {
    const me = await api<PublicUser>(story.server.base, token, 'GET', '/api/users/me');
    await send(page, '/me waves');
    const action = `${me.nickname || me.username} waves`;
    // The pending copy shows it too until the server's message replaces it: wait for the stored one.
    const emote = page.locator('.message:not(.pending)').getByTestId('message-content').filter({ hasText: action });
    await emote.waitFor();
    assert.equal(await emote.innerText(), action);
    assert.equal(await emote.locator('em').evaluate((el) => getComputedStyle(el).fontStyle), 'italic');
    assert.deepEqual(pageErrors, []);
  });
});
