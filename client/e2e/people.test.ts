// People in the web client, in headless Chromium against the single
// instance: Olivia and Pat share a group. Olivia picks a profile picture and
// changes her display name: Pat's open app shows both at once, without a
// reload. Pat opens Olivia's profile card from a message and messages her;
// Quinn, who joins later, shows as online to Olivia straight away; Olivia
// starts a DM with Rory, with whom she shares nothing, by searching for him.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { type Page } from 'playwright-core';
import { api, groupWithMembers, registerAccount, type Account } from './harness/api.ts';
import { describePagesOnFailure } from './harness/app.ts';
import { PNG } from './harness/png.ts';
import { SHOTS } from './harness/server.ts';
import { webAppStory } from './harness/story.ts';
import { openWindow } from './harness/windows.ts';

describe('people in the web client: pictures, names, profile cards, finding someone', () => {
  const story = webAppStory(import.meta.url);
  const pages: Record<string, Page> = {};
  const pageErrors: string[] = [];
  let olivia: Account;
  let pat: Account;
  let quinn: Account;
  let rory: Account;
  let groupId: string;
  let converseId: string;
  let inviteCode: string;

  const open = (label: string, account: Account, path?: string) =>
    openWindow(story, { pages, errors: pageErrors }, label, account, path);
  afterEach(describePagesOnFailure(() => pages));

  it('sets up (API): Olivia and Pat share a group where Olivia wrote', async () => {
    const base = story.server.base;
    [olivia, pat, quinn, rory] = await Promise.all([
      registerAccount(base, 'olivia'),
      registerAccount(base, 'pat'),
      registerAccount(base, 'quinn'),
      registerAccount(base, 'rory'),
    ]);
    ({ groupId, converseId, inviteCode } = await groupWithMembers(base, olivia, 'Crew', [pat]));
    await api(base, olivia.token, 'POST', `/api/converses/${converseId}/messages`, { content: 'Hello crew' });
    for (const [label, account] of [
      ['olivia', olivia],
      ['pat', pat],
    ] as const) {
      const page = await open(label, account, `/g/${groupId}/${converseId}`);
      await page.getByTestId('message-content').filter({ hasText: 'Hello crew' }).waitFor();
    }
  });

  it("shows Olivia's new picture and name in Pat's open app at once", async () => {
    const page = pages.olivia!;
    await page.getByRole('button', { name: 'Settings' }).click();
    const settings = page.getByRole('dialog', { name: 'Settings' });
    await settings
      .getByLabel('Profile picture file')
      .setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: PNG });
    await settings.getByRole('status').filter({ hasText: 'Picture saved.' }).waitFor();
    await settings.getByLabel('Display name').fill('Captain Olivia');
    await settings.getByRole('button', { name: 'Save' }).click();
    await settings.getByText('Saved.', { exact: true }).waitFor();
    await page.keyboard.press('Escape');

    const patPage = pages.pat!;
    const message = patPage.getByTestId('message').filter({ hasText: 'Hello crew' });
    await message.getByRole('button', { name: 'Captain Olivia' }).waitFor();
    const picture = message.getByTestId('avatar').locator('img');
    await picture.waitFor();
    // The picture was cut to a square by the app, and reaches Pat's browser from this server.
    const size = await picture.evaluate(async (img: HTMLImageElement) => {
      await img.decode();
      return [img.naturalWidth, img.naturalHeight, new URL(img.src).origin === location.origin];
    });
    assert.deepEqual(size, [256, 256, true]);
    await patPage.screenshot({ path: join(SHOTS, 'people-live-name-and-picture.png') });
  });

  it("opens Olivia's profile card from her name, and messages her from it", async () => {
    const page = pages.pat!;
    await page
      .getByTestId('message')
      .filter({ hasText: 'Hello crew' })
      .getByRole('button', { name: 'Captain Olivia' })
      .click();
    const card = page.getByRole('dialog', { name: 'Profile of Captain Olivia' });
    await card.getByText('@olivia').waitFor();
    assert.equal(await card.getByTestId('profile-presence').textContent(), 'Online');
    await card.getByRole('button', { name: 'Message' }).click();
    await page.waitForURL(/\/dm\//);
    await page.getByRole('navigation', { name: 'Direct messages' }).getByText('Captain Olivia').waitFor();
  });

  it('shows a new member as online at once, though they shared no group with her before', async () => {
    const page = pages.olivia!;
    await page.getByRole('navigation', { name: 'Groups' }).getByTestId('rail-group').first().click();
    // Quinn is online (his app is open) before he joins: nothing told Olivia's app about him yet.
    await open('quinn', quinn);
    await api(story.server.base, quinn.token, 'POST', `/api/invites/${inviteCode}/accept`);
    const quinnInList = page.getByTestId('member').filter({ hasText: 'quinn' });
    await quinnInList.and(page.locator('[data-online="true"]')).waitFor();
  });

  it('finds Rory by name and starts a conversation with him', async () => {
    const page = pages.olivia!;
    await page.getByRole('navigation', { name: 'Groups' }).getByRole('button', { name: 'Direct messages' }).click();
    await page.getByRole('button', { name: 'New message' }).click();
    const dialog = page.getByRole('dialog', { name: 'New message' });
    await dialog.getByRole('combobox').fill('ror');
    await dialog
      .getByRole('option')
      .filter({ hasText: `@${rory.username}` })
      .waitFor();
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    await page.waitForURL(/\/dm\//);
    await page.getByRole('navigation', { name: 'Direct messages' }).getByText('rory').waitFor();
    assert.deepEqual(pageErrors, []);
  });
});
