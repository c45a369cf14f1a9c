// Joining from an invite link, as a newcomer in Chromium: the link opens on
// a join screen that names the group (name, description, member count, who
// invited) and offers signing up; the new account lands in the group's first
// panel, with the history from before the join (an @all in it) neither
// unread nor a mention. Then what moves them without a word otherwise: the
// open panel deleted, and a ban, each say so in a notice.
import assert from 'node:assert/strict';
import { afterEach, before, describe, it } from 'node:test';
import { type Page } from 'playwright-core';
import { registerAccount, typedApi, type Account } from './harness/api.ts';
import { collectPageErrors, describePagesOnFailure, PASSWORD } from './harness/app.ts';
import { webAppStory } from './harness/story.ts';
import { STEP_DEADLINE_MS } from './harness/deadline.ts';

describe('joining a group from an invite link in Chromium', () => {
  // Loopback command addresses are accepted (the command is only offered, never run).
  const story = webAppStory(import.meta.url, { OUTBOUND_ALLOW: '127.0.0.1' });
  const pageErrors: string[] = [];
  let page: Page;
  let owner: Account;
  let groupId: string;
  let code: string;

  afterEach(describePagesOnFailure(() => ({ newcomer: page })));

  before(async () => {
    owner = await registerAccount(story.server.base, 'olga');
    const as = typedApi(story.server.base, owner.token);
    const group = await as.call('group.create', { name: 'Trail runners' });
    groupId = group.id;
    await as.call('group.update', { groupId, description: 'Weekend runs in the hills' });
    const converseId = group.panels[0]!.converseId;
    await as.call('chat.send', { converseId, content: 'Route for Saturday is up' });
    await as.call('chat.send', { converseId, content: '@all bring water' });
    ({ code } = await as.call('group.createInvite', { groupId }));
    const context = await story.browser.newContext({ viewport: { width: 1280, height: 800 } });
    context.setDefaultTimeout(STEP_DEADLINE_MS);
    page = await context.newPage();
    collectPageErrors(page, 'newcomer', pageErrors);
  });

  it('shows a join screen naming the group, signs up, and lands in its panel with nothing unread', async () => {
    await page.goto(`${story.server.base}/invite/${code}`);
    const card = page.getByTestId('invite-card');
    await card.getByRole('heading', { name: 'Trail runners' }).waitFor();
    assert.match(await card.innerText(), /Weekend runs in the hills/);
    assert.equal(await card.getByTestId('invite-member-count').innerText(), '1 member');
    assert.match(await card.innerText(), /olga invited you/);
    assert.equal(await page.getByText('Welcome back').count(), 0, 'a newcomer is not welcomed back');
    await page.getByRole('heading', { name: 'Create an account to join' }).waitFor();

    await page.getByLabel('Username').fill('nadia');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByTestId('converse-title').filter({ hasText: '#general' }).waitFor();
    await page.getByTestId('message-content').filter({ hasText: 'bring water' }).waitFor();
    assert.equal(new URL(page.url()).pathname.split('/')[2], groupId);
    assert.equal(await page.getByRole('dialog').count(), 0, 'the invite is not offered again');
    // Nothing from before the join counts: no unread badge, no mention, on the panel or the group.
    await page.getByRole('button', { name: 'Trail runners', exact: true }).waitFor();
    assert.equal(await page.getByTestId('badge-panel').count(), 0);
    assert.equal(await page.getByTestId('badge-group').count(), 0);
  });

  it("offers a slash command made after the group's commands were loaded, without a reload", async () => {
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.click();
    await box.pressSequentially('/');
    const menu = page.getByRole('listbox', { name: 'Commands' });
    await menu.getByRole('option').filter({ hasText: '/me' }).waitFor();
    await box.fill('');
    await typedApi(story.server.base, owner.token).call('integration.createCommand', {
      groupId,
      trigger: 'standup',
      url: 'http://127.0.0.1:9/standup',
    });
    await box.pressSequentially('/st');
    await menu.getByRole('option').filter({ hasText: '/standup' }).waitFor();
    await box.fill('');
  });

  it('says so when the open panel is deleted, and when a ban removes me from the group', async () => {
    const as = typedApi(story.server.base, owner.token);
    const news = await as.call('group.createPanel', { groupId, name: 'news', type: 'text' });
    await page.getByTestId('panel-link').filter({ hasText: 'news' }).click();
    await page.getByTestId('converse-title').filter({ hasText: '#news' }).waitFor();
    await as.call('group.deletePanel', { groupId, panelId: news.id });
    await page.getByRole('status').filter({ hasText: '#news was deleted.' }).waitFor();
    await page.getByTestId('converse-title').filter({ hasText: '#general' }).waitFor();

    const members = await as.call('group.members', { groupId });
    const nadia = members.items.find((m) => m.user.username === 'nadia')!;
    await as.call('group.ban', { groupId, userId: nadia.user.id });
    await page.getByRole('status').filter({ hasText: 'You were removed from Trail runners.' }).waitFor();
    await page.getByRole('button', { name: 'Trail runners', exact: true }).waitFor({ state: 'detached' });
    assert.deepEqual(pageErrors, []);
  });
});
