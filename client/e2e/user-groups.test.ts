// User groups and forwarding in the web client, in headless Chromium against
// the single instance: Olga owns "Studio", which Ann, Ben and Cat joined; Dan
// is in no group. Olga makes @devs (Ann and Ben) in the group settings. Cat,
// in #general, writes "@devs look", choosing @devs from the composer's menu;
// Ann, reading #random, gets a mention badge on #general, and the message is
// highlighted as a mention of her. Ann forwards it into her DMs with Cat and
// with Dan: Cat sees the forwarded card with a link back that opens the
// original in #general; Dan, who cannot read #general, sees no link. Setup
// steps go through the API; the story itself through the UI.
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { type Page } from 'playwright-core';
import { api, groupWithMembers, registerAccount, type Account } from './harness/api.ts';
import { describePagesOnFailure } from './harness/app.ts';
import { webAppStory } from './harness/story.ts';
import { openWindow } from './harness/windows.ts';

describe('user groups and forwarding in the web client', () => {
  const story = webAppStory(import.meta.url);
  const pages: Record<string, Page> = {};
  const pageErrors: string[] = [];
  const windows = { pages, errors: pageErrors };
  let olga: Account;
  let ann: Account;
  let ben: Account;
  let cat: Account;
  let dan: Account;
  let groupId: string;
  let generalId: string;
  let randomId: string;
  let annCat: string;
  let annDan: string;

  afterEach(describePagesOnFailure(() => pages));

  const panelLink = (page: Page, name: string) =>
    page.getByRole('navigation', { name: 'Studio panels' }).getByTestId('panel-link').filter({ hasText: name });
  const message = (page: Page, text: string) => page.getByTestId('message').filter({ hasText: text });

  it('sets up (API): Studio with #general and #random, Ann’s DMs with Cat and Dan', async () => {
    const base = story.server.base;
    [olga, ann, ben, cat, dan] = await Promise.all([
      registerAccount(base, 'olga'),
      registerAccount(base, 'ann'),
      registerAccount(base, 'ben'),
      registerAccount(base, 'cat'),
      registerAccount(base, 'dan'),
    ]);
    ({ groupId, converseId: generalId } = await groupWithMembers(base, olga, 'Studio', [ann, ben, cat]));
    randomId = (
      await api<{ converseId: string }>(base, olga.token, 'POST', `/api/groups/${groupId}/panels`, {
        name: 'random',
        type: 'text',
      })
    ).converseId;
    annCat = (await api<{ id: string }>(base, ann.token, 'POST', '/api/dms', { userId: cat.id })).id;
    annDan = (await api<{ id: string }>(base, ann.token, 'POST', '/api/dms', { userId: dan.id })).id;
    await openWindow(story, windows, 'olga', olga, `/g/${groupId}/${generalId}`);
    await openWindow(story, windows, 'ann', ann, `/g/${groupId}/${randomId}`);
    await openWindow(story, windows, 'cat', cat, `/g/${groupId}/${generalId}`);
  });

  it('lets Olga make @devs with Ann and Ben in the group settings', async () => {
    const page = pages.olga!;
    await page.getByRole('button', { name: 'Studio: group menu' }).click();
    await page.getByRole('menuitem', { name: 'Group settings' }).click();
    const settings = page.getByRole('dialog', { name: 'Studio settings' });
    await settings.getByRole('tab', { name: 'User groups' }).click();
    const form = settings.getByRole('form', { name: 'New user group' });
    await form.getByLabel('Handle').fill('devs');
    await form.getByLabel('Name').fill('Developers');
    await form.getByRole('checkbox', { name: /^ann/ }).check();
    await form.getByRole('checkbox', { name: /^ben/ }).check();
    await form.getByRole('button', { name: 'Create' }).click();
    const devs = settings.getByRole('listitem', { name: '@devs' });
    await devs.waitFor();
    await devs.getByText('ann, ben').waitFor();
    await page.keyboard.press('Escape');
    await settings.waitFor({ state: 'detached' });
  });

  it('Cat writes “@devs look” from the composer’s menu; Ann gets the mention badge and highlight', async () => {
    const page = pages.cat!;
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.pressSequentially('@dev');
    await page.getByRole('listbox', { name: 'Mention a member' }).getByRole('option', { name: /@devs/ }).click();
    await box.pressSequentially('look');
    await box.press('Enter');
    await message(page, '@devs look').waitFor();

    const annPage = pages.ann!;
    await panelLink(annPage, 'general').getByTestId('badge-panel').and(annPage.getByLabel('1 mentions')).waitFor();
    await panelLink(annPage, 'general').click();
    const mentioned = message(annPage, '@devs look');
    await mentioned.waitFor();
    assert.match((await mentioned.getAttribute('class')) ?? '', /mentions-me/);
    assert.match((await mentioned.getByText('@devs').getAttribute('class')) ?? '', /mention/);
  });

  it('Ann forwards it into her DMs with Cat and with Dan', async () => {
    const page = pages.ann!;
    const original = message(page, '@devs look');
    await original.hover();
    await original.getByRole('button', { name: 'Forward', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Forward message' });
    for (const name of ['cat', 'dan']) {
      await dialog.getByLabel('Find a conversation').fill(name);
      await dialog.getByRole('list', { name: 'Conversations' }).getByRole('button', { name, exact: true }).click();
      await dialog
        .getByTestId('forwarded-status')
        .filter({ hasText: `Forwarded to ${name}` })
        .waitFor();
    }
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });

  it('Cat, a member of Studio, sees where it came from and follows the link back', async () => {
    const page = pages.cat!;
    await page.goto(`${story.server.base}/dm/${annCat}`);
    const copy = message(page, '@devs look');
    const card = copy.getByTestId('forwarded-from');
    await card.filter({ hasText: 'Forwarded from #general · Studio' }).waitFor();
    await card.getByText('cat', { exact: false }).first().waitFor();
    await card.getByRole('button', { name: 'Go to original' }).click();
    await page.waitForURL(`**/g/${groupId}/${generalId}`);
    await message(page, '@devs look').waitFor();
    assert.equal(await message(page, '@devs look').getByTestId('forwarded-from').count(), 0);
  });

  it('Dan, who cannot read #general, sees who wrote it and when, with no link back', async () => {
    const page = await openWindow(story, windows, 'dan', dan, `/dm/${annDan}`);
    const card = message(page, '@devs look').getByTestId('forwarded-from');
    await card.waitFor();
    const text = (await card.textContent()) ?? '';
    assert.doesNotMatch(text, /#general/);
    assert.match(text, /cat/);
    assert.equal(await card.getByRole('button', { name: 'Go to original' }).count(), 0);
    assert.deepEqual(pageErrors, []);
  });
});
