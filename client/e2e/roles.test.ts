// Roles and private panels in the web client, in headless Chromium against
// the single instance: Olga owns a group that Ann and Ben joined. She makes a
// role "Crew" in the group settings and gives it to Ann, then makes the panel
// #backstage private to Crew, with a topic. Ben's open app loses the panel at
// once, without a reload; Ann's keeps it (with its lock and topic), and what
// she writes there never reaches Ben's browser. When Olga takes the role from
// Ann, Ann's app loses the panel at once too. Setup steps go through the API;
// the story itself through the UI. Last, Olga gives the group an icon, which
// Ben's rail shows at once.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { type Page } from 'playwright-core';
import { api, groupWithMembers, openAs, registerAccount, type Account } from './harness/api.ts';
import { describePagesOnFailure, send } from './harness/app.ts';
import { PNG } from './harness/png.ts';
import { SHOTS } from './harness/server.ts';
import { webAppStory } from './harness/story.ts';
import { openWindow, watchPage } from './harness/windows.ts';
import { STEP_DEADLINE_MS } from './harness/deadline.ts';

const SECRET = 'Crew only: the set list is in the blue folder';

describe('roles and private panels in the web client', () => {
  const story = webAppStory(import.meta.url);
  const pages: Record<string, Page> = {};
  const pageErrors: string[] = [];
  const windows = { pages, errors: pageErrors };
  /** Every socket frame Ben's browser received, from its first page load on. */
  const benFrames: string[] = [];
  let olga: Account;
  let ann: Account;
  let ben: Account;
  let groupId: string;
  let generalId: string;

  afterEach(describePagesOnFailure(() => pages));

  const panelList = (page: Page) => page.getByRole('navigation', { name: 'Studio panels' });
  const backstageLink = (page: Page) => panelList(page).getByTestId('panel-link').filter({ hasText: 'backstage' });

  it('sets up (API): Olga owns a group with #general and #backstage that Ann and Ben joined', async () => {
    const base = story.server.base;
    [olga, ann, ben] = await Promise.all([
      registerAccount(base, 'olga'),
      registerAccount(base, 'ann'),
      registerAccount(base, 'ben'),
    ]);
    ({ groupId, converseId: generalId } = await groupWithMembers(base, olga, 'Studio', [ann, ben]));
    await api(base, olga.token, 'POST', `/api/groups/${groupId}/panels`, { name: 'backstage', type: 'text' });
    const path = `/g/${groupId}/${generalId}`;
    await openWindow(story, windows, 'olga', olga, path);
    await openWindow(story, windows, 'ann', ann, path);
    // Ben's window records what its socket receives before the app even connects.
    const context = await story.browser.newContext({ viewport: { width: 1280, height: 800 } });
    context.setDefaultTimeout(STEP_DEADLINE_MS);
    const benPage = await context.newPage();
    benPage.on('websocket', (socket) => socket.on('framereceived', (frame) => benFrames.push(String(frame.payload))));
    watchPage(windows, 'ben', benPage);
    await openAs(benPage, base, ben, path);
    for (const page of Object.values(pages)) await backstageLink(page).waitFor();
  });

  it('lets Olga make a role in the group settings and give it to Ann', async () => {
    const page = pages.olga!;
    await page.getByRole('button', { name: 'Studio: group menu' }).click();
    await page.getByRole('menuitem', { name: 'Group settings' }).click();
    const settings = page.getByRole('dialog', { name: 'Studio settings' });
    await settings.getByRole('tab', { name: 'Roles' }).click();
    await settings.getByRole('listitem', { name: '@everyone' }).waitFor();
    await settings.getByLabel('New role name').fill('Crew');
    await settings.getByLabel('New role colour').fill('#e67e22');
    await settings.getByRole('button', { name: 'Create role' }).click();
    const crew = settings.getByRole('listitem', { name: 'Crew' });
    await crew.waitFor();
    // Its permissions: pinning, described in a line of its own.
    await crew.getByRole('button', { name: 'Edit Crew' }).click();
    await crew.getByRole('checkbox', { name: /Pin messages/ }).check();
    await crew.getByRole('button', { name: 'Save role' }).click();
    await crew.getByText('1 permission', { exact: true }).waitFor();
    await crew.getByRole('button', { name: 'Edit Crew' }).click();
    await page.screenshot({ path: join(SHOTS, 'roles-tab.png') });
    await crew.getByRole('button', { name: 'Edit Crew' }).click();

    await settings.getByRole('tab', { name: 'Members' }).click();
    const annRow = settings.getByRole('listitem', { name: 'ann' });
    await annRow.getByRole('button', { name: 'Roles of ann' }).click();
    await annRow.getByRole('group', { name: 'Roles of ann' }).getByRole('checkbox', { name: 'Crew' }).check();
    await annRow.getByTestId('role-chip').filter({ hasText: 'Crew' }).waitFor();
    await page.screenshot({ path: join(SHOTS, 'roles-member-row.png') });
    await page.keyboard.press('Escape');
    await settings.waitFor({ state: 'detached' });

    // The member list shows Ann's role too, in Olga's window and in Ben's.
    for (const label of ['olga', 'ben']) {
      const member = pages[label]!.getByTestId('member').filter({ hasText: 'ann' });
      await member.getByTestId('role-chip').filter({ hasText: 'Crew' }).waitFor();
    }
  });

  it('makes #backstage private to Crew: it leaves Ben’s app at once and stays in Ann’s', async () => {
    const page = pages.olga!;
    await panelList(page).getByRole('button', { name: 'Edit panel backstage' }).click();
    const dialog = page.getByRole('dialog', { name: 'Panel settings' });
    await dialog.getByLabel('Topic').fill('Set lists and call times');
    await dialog.getByRole('switch', { name: 'Private' }).check();
    await dialog.getByRole('group', { name: 'Allowed roles' }).getByRole('checkbox', { name: 'Crew' }).check();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    await backstageLink(page).getByTestId('private-mark').waitFor();

    await backstageLink(pages.ben!).waitFor({ state: 'detached' });
    const annPage = pages.ann!;
    await backstageLink(annPage).getByTestId('private-mark').waitFor();
    await backstageLink(annPage).click();
    await annPage.getByTestId('converse-topic').filter({ hasText: 'Set lists and call times' }).waitFor();
    await send(annPage, SECRET);
    await annPage.getByTestId('message-content').filter({ hasText: SECRET }).waitFor();
    await annPage.screenshot({ path: join(SHOTS, 'roles-private-panel.png') });

    // Olga, allowed as the owner, reads it; then writes in #general, which Ben gets after it.
    await backstageLink(page).click();
    await page.getByTestId('message-content').filter({ hasText: SECRET }).waitFor();
    await panelList(page).getByTestId('panel-link').filter({ hasText: 'general' }).click();
    await send(page, 'Soundcheck at six');
    await pages.ben!.getByTestId('message-content').filter({ hasText: 'Soundcheck at six' }).waitFor();
    assert.equal(await panelList(pages.ben!).getByText('backstage').count(), 0);
    assert.ok(benFrames.length > 0, "Ben's socket frames were recorded");
    assert.deepEqual(
      benFrames.filter((f) => f.includes('set list') || f.includes('Set lists')),
      [],
      'nothing of the private panel reached Ben',
    );
  });

  it('takes the role from Ann: the panel leaves her open app at once', async () => {
    const page = pages.olga!;
    const annPage = pages.ann!;
    await backstageLink(annPage).click();
    await annPage.getByTestId('converse-title').filter({ hasText: '#backstage' }).waitFor();

    await page.getByTestId('member').filter({ hasText: 'ann' }).getByRole('button', { name: /ann/ }).click();
    await page.getByRole('menuitem', { name: 'Take role Crew' }).click();
    await page.getByTestId('member').filter({ hasText: 'ann' }).getByTestId('role-chip').waitFor({ state: 'detached' });

    await backstageLink(annPage).waitFor({ state: 'detached' });
    // The panel she was reading is gone: her app shows the group's first panel.
    await annPage.getByTestId('converse-title').filter({ hasText: '#general' }).waitFor();
    await backstageLink(page).waitFor();
    assert.deepEqual(
      benFrames.filter((f) => f.includes('set list') || f.includes('Set lists')),
      [],
      'nothing of the private panel reached Ben',
    );
    assert.deepEqual(pageErrors, []);
  });

  it("gives the group an icon in its settings: it replaces the initials in Ben's rail at once", async () => {
    const page = pages.olga!;
    await page.getByRole('button', { name: 'Studio: group menu' }).click();
    await page.getByRole('menuitem', { name: 'Group settings' }).click();
    const settings = page.getByRole('dialog', { name: 'Studio settings' });
    await settings.getByRole('tab', { name: 'Icon' }).click();
    await settings
      .getByLabel('Group icon file')
      .setInputFiles({ name: 'studio.png', mimeType: 'image/png', buffer: PNG });
    await settings.getByText('Icon saved.', { exact: true }).waitFor();
    await settings.getByTestId('group-icon-preview').getByTestId('group-icon').waitFor();
    await page.keyboard.press('Escape');

    const rail = pages.ben!.getByRole('navigation', { name: 'Groups' }).getByRole('button', { name: 'Studio' });
    const picture = rail.getByTestId('group-icon');
    await picture.waitFor();
    // Loaded from this server, not broken (a broken one falls back to the initials).
    const loaded = await picture.evaluate(async (img: HTMLImageElement) => {
      await img.decode();
      return img.naturalWidth > 0 && new URL(img.src).origin === location.origin;
    });
    assert.equal(loaded, true);
    assert.deepEqual(pageErrors, []);
  });
});
