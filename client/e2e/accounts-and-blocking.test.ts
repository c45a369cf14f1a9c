// Ann's account in Chromium, with Pest in her group "Harbour": a CI tool posts
// a Slack payload with an attachment into the group, and the app shows it as
// a quote with its link, fields and emoji. Pest bothers her, so she blocks him
// from his profile card: his message folds away (she can still show it), he
// cannot DM her, and Settings lists him until she unblocks him. Her sessions
// are named by browser and system; turning on notifications says why it
// failed. A server admin's audit log names the group
// an entry is about. Finally Ann deletes her account from Settings (the
// password again, then a confirmation) and lands on the sign-in screen, told
// so.
import assert from 'node:assert/strict';
import { afterEach, before, describe, it } from 'node:test';
import { type Page } from 'playwright-core';
import type { IncomingWebhookWithUrl } from '@im/protocol';
import { api, openAs, registerAccount, typedApi, type Account } from './harness/api.ts';
import { collectPageErrors, describePagesOnFailure, PASSWORD, register } from './harness/app.ts';
import { STEP_DEADLINE_MS } from './harness/deadline.ts';
import { webAppStory } from './harness/story.ts';

describe('accounts in Chromium: Slack webhooks, blocking, sessions, the audit log, deleting my account', () => {
  const story = webAppStory(import.meta.url, { ADMIN_USERNAMES: 'root' });
  const pageErrors: string[] = [];
  let page: Page;
  let ann: Account;
  let pest: Account;
  let groupId: string;
  let converseId: string;
  let panelId: string;

  afterEach(describePagesOnFailure(() => ({ ann: page })));

  before(async () => {
    const context = await story.browser.newContext({ viewport: { width: 1280, height: 900 } });
    context.setDefaultTimeout(STEP_DEADLINE_MS);
    page = await context.newPage();
    collectPageErrors(page, 'ann', pageErrors);
    // Through the app's own form: her session is this browser's.
    await register(page, story.server.base, 'ann');
    const token = (await page.evaluate(() => localStorage.getItem('im.token')))!;
    ann = { id: (await typedApi(story.server.base, token).call('user.me')).id, username: 'ann', token };
    pest = await registerAccount(story.server.base, 'pest');
    const group = await typedApi(story.server.base, ann.token).call('group.create', { name: 'Harbour' });
    groupId = group.id;
    converseId = group.panels[0]!.converseId;
    panelId = group.panels[0]!.id;
    const { code } = await typedApi(story.server.base, ann.token).call('group.createInvite', { groupId });
    await typedApi(story.server.base, pest.token).call('group.acceptInvite', { code });
    await openAs(page, story.server.base, ann, `/g/${groupId}/${converseId}`);
    await page.getByTestId('converse-title').filter({ hasText: '#general' }).waitFor();
  });

  it('shows a Slack attachment posted to an incoming webhook as a quote with its link, fields and emoji', async () => {
    const hook = await api<IncomingWebhookWithUrl>(
      story.server.base,
      ann.token,
      'POST',
      `/api/groups/${groupId}/webhooks/incoming`,
      { panelId, name: 'CI' },
    );
    await api(story.server.base, null, 'POST', hook.url, {
      channel: '#deploys',
      text: 'Deploy <https://ci.example/7|#7> :rocket:',
      attachments: [
        {
          fallback: 'Deploy done',
          color: 'good',
          title: 'Production',
          title_link: 'https://ci.example/prod',
          fields: [{ title: 'Version', value: '1.2.3', short: true }],
        },
      ],
    });
    const message = page.getByTestId('message').filter({ hasText: 'Deploy' });
    await message.waitFor();
    assert.equal(
      await message.getByRole('link', { name: 'Production' }).getAttribute('href'),
      'https://ci.example/prod',
    );
    assert.equal(await message.getByRole('link', { name: '#7' }).getAttribute('href'), 'https://ci.example/7');
    const quote = message.locator('blockquote');
    assert.match(await quote.innerText(), /Version: 1\.2\.3/);
    assert.match(await message.getByTestId('message-content').innerText(), /🚀/);
  });

  it('blocks Pest from his profile card: his message folds away, he cannot DM her; Settings unblocks him', async () => {
    await typedApi(story.server.base, pest.token).call('chat.send', { converseId, content: 'buy my stuff' });
    const his = page.getByTestId('message').filter({ hasText: 'buy my stuff' });
    await his.getByRole('button', { name: 'pest' }).click();
    const card = page.getByRole('dialog', { name: 'Profile of pest' });
    await card.getByRole('button', { name: 'Block' }).click();

    // The card goes with the name it opened from: the message folds at once.
    const folded = page.getByTestId('blocked-message');
    await folded.filter({ hasText: 'Message from a blocked user.' }).waitFor();
    assert.equal(await page.getByTestId('message').filter({ hasText: 'buy my stuff' }).count(), 0);
    await folded.getByRole('button', { name: 'Show' }).click();
    await page.getByTestId('message').filter({ hasText: 'buy my stuff' }).waitFor();

    const refused = await fetch(`${story.server.base}/api/dms`, {
      method: 'POST',
      headers: { authorization: `Bearer ${pest.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ userId: ann.id }),
    });
    assert.equal(refused.status, 403);
    assert.equal(((await refused.json()) as { error: { code: string } }).error.code, 'IM_ERR_BLOCKED');

    await page.getByRole('button', { name: 'Settings' }).click();
    const settings = page.getByRole('dialog', { name: 'Settings' });
    const row = settings.getByTestId('blocked-user').filter({ hasText: '@pest' });
    await row.waitFor();
    await row.getByRole('button', { name: 'Unblock' }).click();
    await settings.getByTestId('blocked-users').getByText('You have not blocked anyone.').waitFor();
    const dm = await api<{ id: string }>(story.server.base, pest.token, 'POST', '/api/dms', { userId: ann.id });
    assert.ok(dm.id);
    await settings.getByRole('button', { name: 'Close' }).first().click();
  });

  it('names her sessions by browser and system, with the raw user agent as the tooltip', async () => {
    await page.getByRole('button', { name: 'Settings' }).click();
    const settings = page.getByRole('dialog', { name: 'Settings' });
    const mine = settings.getByTestId('session').filter({ hasText: 'This browser' }).locator('.session-agent');
    await mine.waitFor();
    const userAgent = await page.evaluate(() => navigator.userAgent);
    assert.equal(await mine.getAttribute('title'), userAgent);
    assert.match(await mine.innerText(), /^Chrom\w*( Headless)? on Linux$/);
    await settings.getByRole('button', { name: 'Close' }).first().click();
  });

  it("shows the group's name in the server admin's audit log", async () => {
    const drifter = await registerAccount(story.server.base, 'drifter');
    const { code } = await typedApi(story.server.base, ann.token).call('group.createInvite', { groupId });
    await typedApi(story.server.base, drifter.token).call('group.acceptInvite', { code });
    await api(story.server.base, ann.token, 'DELETE', `/api/groups/${groupId}/members/${drifter.id}`);
    const root = await registerAccount(story.server.base, 'root');
    const context = await story.browser.newContext({ viewport: { width: 1280, height: 900 } });
    context.setDefaultTimeout(STEP_DEADLINE_MS);
    const admin = await context.newPage();
    collectPageErrors(admin, 'root', pageErrors);
    await openAs(admin, story.server.base, root);
    await admin.getByRole('button', { name: 'Admin console' }).click();
    const console_ = admin.getByRole('dialog', { name: 'Admin console' });
    await console_.getByRole('tab', { name: 'Audit log' }).click();
    const entry = console_.getByTestId('audit-entry').filter({ hasText: 'drifter' });
    await entry.getByTestId('audit-group').filter({ hasText: 'in Harbour' }).waitFor();
    await context.close();
  });

  it('says why notifications could not be turned on when the browser refuses them', async () => {
    await page.context().clearPermissions();
    // The browser answers "denied" without asking, as when the user blocked the site.
    await page.evaluate(() => {
      Notification.requestPermission = () => Promise.resolve('denied');
    });
    await page.getByRole('button', { name: 'Settings' }).click();
    const settings = page.getByRole('dialog', { name: 'Settings' });
    await settings.getByRole('button', { name: 'Turn on notifications' }).click();
    await settings.getByRole('status').filter({ hasText: 'Notifications are blocked for this site.' }).waitFor();
    await settings.getByRole('button', { name: 'Close' }).first().click();
  });

  it('deletes her account from Settings after her password and a confirmation, and says so at sign-in', async () => {
    await page.getByRole('button', { name: 'Settings' }).click();
    const section = page.getByRole('dialog', { name: 'Settings' }).getByTestId('delete-account');
    await section.getByRole('button', { name: 'Delete my account…' }).click();
    await section.getByLabel('Your password').fill(`${PASSWORD}!`);
    await section.getByRole('button', { name: 'Delete my account', exact: true }).click();
    await section.getByRole('button', { name: 'Yes, delete my account' }).click();
    await section
      .getByRole('alert')
      .filter({ hasText: /password/i })
      .waitFor();

    await section.getByLabel('Your password').fill(PASSWORD);
    await section.getByRole('button', { name: 'Delete my account', exact: true }).click();
    await section.getByRole('button', { name: 'Yes, delete my account' }).click();
    await page.getByTestId('sign-in-notice').filter({ hasText: 'Your account was deleted.' }).waitFor();
    await page.getByRole('button', { name: 'Log in' }).waitFor();
    assert.equal(await page.evaluate(() => localStorage.getItem('im.token')), null);
    const gone = await fetch(`${story.server.base}/api/users/me`, {
      headers: { authorization: `Bearer ${ann.token}` },
    });
    assert.equal(gone.status, 401);
    assert.deepEqual(pageErrors, []);
  });
});
