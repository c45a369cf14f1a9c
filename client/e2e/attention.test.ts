// Notification levels, the inbox bell and mark as unread in the web client,
// in headless Chromium against the single instance: Nia owns a group,
// "Harbour", that Tom joined. Tom mutes #random from its header's bell menu;
// Nia's chatter there leaves his sidebar without a badge, but her mention of
// him there still counts on #random. Her mentions of him in #dev and in a DM
// light up the bell in his user bar; he opens it and a click on the #dev entry
// takes him to that message, highlighted. "Mark all read" clears the bell's
// count. Last, he marks #dev unread from an earlier message: the "New
// messages" divider moves back above it and #dev counts as unread again.
// Setup steps and Nia's messages go through the API; Tom's through the UI.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { type Page } from 'playwright-core';
import { api, groupWithMembers, registerAccount, type Account } from './harness/api.ts';
import { describePagesOnFailure } from './harness/app.ts';
import { SHOTS } from './harness/server.ts';
import { webAppStory } from './harness/story.ts';
import { openWindow } from './harness/windows.ts';

describe('notification levels, the inbox bell and mark as unread in the web client', () => {
  const story = webAppStory(import.meta.url);
  const pages: Record<string, Page> = {};
  const pageErrors: string[] = [];
  let nia: Account;
  let tom: Account;
  let groupId: string;
  let randomId: string;
  let devId: string;
  let page: Page;

  afterEach(describePagesOnFailure(() => pages));

  const post = (converseId: string, content: string) =>
    api<{ id: string; seq: number }>(story.server.base, nia.token, 'POST', `/api/converses/${converseId}/messages`, {
      content,
    });
  const panels = () => page.getByRole('navigation', { name: 'Harbour panels' });
  const panelItem = (name: string) => panels().getByRole('listitem').filter({ hasText: name });

  it('sets up (API): Nia owns Harbour with #general, #random and #dev, which Tom joined', async () => {
    const base = story.server.base;
    [nia, tom] = await Promise.all([registerAccount(base, 'nia'), registerAccount(base, 'tom')]);
    ({ groupId } = await groupWithMembers(base, nia, 'Harbour', [tom]));
    const random = await api<{ converseId: string }>(base, nia.token, 'POST', `/api/groups/${groupId}/panels`, {
      name: 'random',
      type: 'text',
    });
    const dev = await api<{ converseId: string }>(base, nia.token, 'POST', `/api/groups/${groupId}/panels`, {
      name: 'dev',
      type: 'text',
    });
    randomId = random.converseId;
    devId = dev.converseId;
    page = await openWindow(story, { pages, errors: pageErrors }, 'tom', tom, `/g/${groupId}/${randomId}`);
    await page.getByTestId('converse-title').filter({ hasText: '#random' }).waitFor();
  });

  it('lets Tom mute #random from its header: it dims, and its chatter brings no badge', async () => {
    await page.getByRole('button', { name: 'Notifications', exact: true }).click();
    const menu = page.getByRole('menu', { name: 'Notifications' });
    assert.equal(await menu.getByRole('menuitemradio', { name: 'All messages' }).getAttribute('aria-checked'), 'true');
    await page.screenshot({ path: join(SHOTS, 'attention-level-menu.png') });
    await menu.getByRole('menuitemradio', { name: 'Nothing' }).click();
    await page.getByRole('button', { name: 'Notifications (muted)' }).waitFor();
    await panelItem('random').and(page.locator('.muted')).waitFor();
    await panels().getByTestId('panel-link').filter({ hasText: 'general' }).click();
    await page.getByTestId('converse-title').filter({ hasText: '#general' }).waitFor();

    await post(randomId, 'anyone up for lunch?');
    await post(randomId, 'the coffee machine is fixed');
    await post(randomId, `@${tom.username} your parcel is at the desk`);
    // Only the mention counts on a muted panel: its badge says 1 mention, not 3 unread.
    const badge = panelItem('random').getByTestId('badge-panel');
    await badge.waitFor();
    assert.equal(await badge.innerText(), '1');
    assert.equal(await badge.getAttribute('aria-label'), '1 mentions');
    await page.screenshot({ path: join(SHOTS, 'attention-muted-panel.png') });
  });

  it('shows mentions elsewhere in the bell, and a click on one jumps to it', async () => {
    for (let i = 1; i <= 5; i += 1) await post(devId, `dev note ${i}`);
    await post(devId, `@${tom.username} can you review the release notes?`);
    const dm = await api<{ id: string }>(story.server.base, nia.token, 'POST', '/api/dms', { userId: tom.id });
    await post(dm.id, `@${tom.username} ping me when you are back`);

    const count = page.getByTestId('inbox-count');
    await page.waitForFunction(() => document.querySelector('[data-testid="inbox-count"]')?.textContent === '2');
    await page.getByRole('button', { name: 'Inbox, 2 unread' }).click();
    const inbox = page.getByRole('dialog', { name: 'Inbox' });
    const entries = inbox.getByTestId('inbox-entry');
    await entries.nth(1).waitFor();
    assert.equal(await entries.count(), 2, 'the mention in muted #random filed nothing');
    const devEntry = entries.filter({ hasText: '#dev · Harbour' });
    assert.match(await devEntry.innerText(), /nia\s+mentioned you/);
    assert.match(await devEntry.innerText(), /review the release notes/);
    await page.screenshot({ path: join(SHOTS, 'attention-inbox.png') });

    await devEntry.click();
    await page.getByTestId('converse-title').filter({ hasText: '#dev' }).waitFor();
    const highlighted = page.locator('.row.highlight').getByTestId('message-content');
    await highlighted.waitFor();
    assert.match(await highlighted.innerText(), /review the release notes/);

    await page.getByTestId('inbox-bell').click();
    await page.getByTestId('inbox-mark-all-read').click();
    await count.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Inbox', exact: true }).waitFor();
    await page.keyboard.press('Escape');
  });

  it('marks #dev unread from an earlier message: the divider moves back above it', async () => {
    const row = page.locator('.row').filter({ hasText: 'dev note 3' });
    await row.hover();
    await row.getByRole('button', { name: 'Mark as unread' }).click();
    const divider = page.getByTestId('new-messages');
    await divider.waitFor();
    const dividedRow = page.locator('.row', { has: divider });
    assert.equal(await dividedRow.getByTestId('message-content').innerText(), 'dev note 3');
    // #dev counts as unread again, from that message on: notes 3 to 5 and the mention.
    const badge = panelItem('dev').getByTestId('badge-panel');
    await badge.waitFor();
    assert.equal(await badge.getAttribute('aria-label'), '1 mentions');
    assert.equal(
      (
        await api<Array<{ converseId: string; unread: number }>>(story.server.base, tom.token, 'GET', '/api/unread')
      ).find((e) => e.converseId === devId)?.unread,
      4,
    );
    await page.screenshot({ path: join(SHOTS, 'attention-mark-unread.png') });
    assert.deepEqual(pageErrors, []);
  });
});
