// Status in the web client, in headless Chromium against the single
// instance: Ada and Bob share a group where Ada wrote. Ada opens the status
// menu on her user bar, turns on do not disturb for an hour and sets a custom
// status with an emoji. Bob's open app shows, without a reload, the red dot and
// her text in the member list and on her profile card. When Ada goes back to
// online and clears the custom status, Bob's app shows that at once too.
// Setup steps go through the API; the story itself through the UI.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { type Page } from 'playwright-core';
import { api, groupWithMembers, registerAccount, type Account } from './harness/api.ts';
import { describePagesOnFailure } from './harness/app.ts';
import { SHOTS } from './harness/server.ts';
import { webAppStory } from './harness/story.ts';
import { openWindow } from './harness/windows.ts';

describe('status in the web client: do not disturb and a custom status, seen live by others', () => {
  const story = webAppStory(import.meta.url);
  const pages: Record<string, Page> = {};
  const pageErrors: string[] = [];
  let ada: Account;
  let bo: Account;

  afterEach(describePagesOnFailure(() => pages));

  const adaInMembers = (page: Page) => page.getByTestId('member').filter({ hasText: 'ada' });
  const statusMenu = async (page: Page) => {
    await page.getByTestId('status-button').click();
    return page.getByRole('menu');
  };

  it('sets up (API): Ada and Bob share a group where Ada wrote', async () => {
    const base = story.server.base;
    [ada, bo] = await Promise.all([registerAccount(base, 'ada'), registerAccount(base, 'bob')]);
    const { groupId, converseId } = await groupWithMembers(base, ada, 'Studio', [bo]);
    await api(base, ada.token, 'POST', `/api/converses/${converseId}/messages`, { content: 'Morning all' });
    for (const [label, account] of [
      ['ada', ada],
      ['bob', bo],
    ] as const) {
      const page = await openWindow(
        story,
        { pages, errors: pageErrors },
        label,
        account,
        `/g/${groupId}/${converseId}`,
      );
      await page.getByTestId('message-content').filter({ hasText: 'Morning all' }).waitFor();
    }
    await adaInMembers(pages.bob!).and(pages.bob!.locator('[data-presence="Online"]')).waitFor();
  });

  it('lets Ada turn on do not disturb for an hour and set a custom status from her user bar', async () => {
    const page = pages.ada!;
    await (await statusMenu(page)).getByRole('menuitem', { name: 'For 1 hour' }).click();
    await page.getByTestId('status-button').locator('.presence.dnd').waitFor();
    const menu = await statusMenu(page);
    assert.match((await menu.getByTestId('status-now').textContent()) ?? '', /^Do not disturb until /);
    await menu.getByRole('menuitem', { name: 'Set a custom status' }).click();
    const dialog = page.getByRole('dialog', { name: 'Set a custom status' });
    await dialog.getByRole('button', { name: '🎧' }).click();
    await dialog.getByLabel("What's happening?").fill('Deep work until lunch');
    await dialog.getByLabel('Clear after').selectOption({ label: '4 hours' });
    await dialog.getByRole('button', { name: 'Save status' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByTestId('status-button').getByText('🎧 Deep work until lunch').waitFor();
    await page.screenshot({ path: join(SHOTS, 'status-ada-menu.png') });
  });

  it("shows Bob the red dot and Ada's text at once, in the member list and on her profile card", async () => {
    const page = pages.bob!;
    const row = adaInMembers(page);
    await row.and(page.locator('[data-presence="Do not disturb"]')).waitFor();
    await row.locator('.presence.dnd').waitFor();
    assert.equal(await row.getByTestId('custom-status').textContent(), '🎧 Deep work until lunch');
    await page
      .getByTestId('message')
      .filter({ hasText: 'Morning all' })
      .getByRole('button', { name: /ada/ })
      .first()
      .click();
    const card = page.getByRole('dialog', { name: /Profile of ada/ });
    await card.getByText('Do not disturb').waitFor();
    assert.equal(await card.getByTestId('custom-status').textContent(), '🎧 Deep work until lunch');
    await card.locator('.presence.dnd').waitFor();
    await page.screenshot({ path: join(SHOTS, 'status-bo-sees-dnd.png') });
  });

  it('shows Bob at once when Ada is back online and clears her status', async () => {
    const ada = pages.ada!;
    await (await statusMenu(ada)).getByRole('menuitem', { name: /Online/ }).click();
    await (await statusMenu(ada)).getByRole('menuitem', { name: 'Clear custom status' }).click();
    await ada.getByTestId('status-button').locator('.presence.online').waitFor();

    const page = pages.bob!;
    const row = adaInMembers(page);
    await row.and(page.locator('[data-presence="Online"]')).waitFor();
    await row.getByTestId('custom-status').waitFor({ state: 'detached' });
    const card = page.getByRole('dialog', { name: /Profile of ada/ });
    await card.getByTestId('profile-presence').filter({ hasText: 'Online' }).waitFor();
    assert.equal(await card.getByTestId('custom-status').count(), 0);
    assert.deepEqual(pageErrors, []);
  });
});
