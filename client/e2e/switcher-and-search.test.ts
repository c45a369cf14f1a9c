// The quick switcher and message search in headless Chromium against the
// single instance: Ctrl+K jumps to a panel or a DM by part of its name
// (unread ones marked) and hands other words to message search; the tab
// title names where Mara is; Ctrl+Shift+F searches with filters shown as
// chips, completes from: and in:, names a bad filter, and opens a result.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { type Page } from 'playwright-core';
import { api, groupWithMembers, registerAccount, type Account } from './harness/api.ts';
import { describePagesOnFailure } from './harness/app.ts';
import { SHOTS } from './harness/server.ts';
import { webAppStory } from './harness/story.ts';
import { openWindow } from './harness/windows.ts';

describe('quick switcher and message search', () => {
  const story = webAppStory(import.meta.url);
  const pages: Record<string, Page> = {};
  const pageErrors: string[] = [];
  let mara: Account;
  let kai: Account;
  let zoe: Account;
  let general: string;
  let design: string;
  let dm: string;
  let page: Page;

  afterEach(describePagesOnFailure(() => pages));

  const post = (who: Account, converseId: string, content: string) =>
    api(story.server.base, who.token, 'POST', `/api/converses/${converseId}/messages`, { content });
  const switcher = () => page.getByRole('combobox', { name: 'Jump to a panel, direct message or person' });
  const searchBox = () => page.getByRole('combobox', { name: 'Search messages' });
  const options = () => page.getByRole('listbox').getByRole('option');

  it('sets up a group with two panels and a DM with an unread message', async () => {
    const base = story.server.base;
    mara = await registerAccount(base, 'mara');
    kai = await registerAccount(base, 'kai');
    zoe = await registerAccount(base, 'zoe');
    let groupId: string;
    ({ groupId, converseId: general } = await groupWithMembers(base, mara, 'Orchard', [kai, zoe]));
    design = (
      await api<{ converseId: string }>(base, mara.token, 'POST', `/api/groups/${groupId}/panels`, {
        name: 'design-notes',
        type: 'text',
      })
    ).converseId;
    dm = (await api<{ id: string }>(base, mara.token, 'POST', '/api/dms', { userId: kai.id })).id;
    await post(kai, general, 'the plan for the harvest');
    await post(zoe, general, 'plan notes at https://example.org/plan');
    await post(kai, design, 'plan draft for the labels');
    await post(kai, dm, 'are you coming tomorrow?');
    page = await openWindow(story, { pages, errors: pageErrors }, 'mara', mara, `/g/${groupId}/${general}`);
    await page.getByTestId('converse-title').filter({ hasText: '#general' }).waitFor();
    await page.waitForFunction(() => / #general · Orchard · /.test(document.title));
  });

  it('jumps to a panel with Ctrl+K by a few of its letters, and the tab title follows', async () => {
    await page.keyboard.press('Control+k');
    const box = switcher();
    await box.waitFor();
    assert.equal(await box.evaluate((e) => e === document.activeElement), true);
    assert.equal(await box.getAttribute('aria-expanded'), 'true');
    const listId = (await box.getAttribute('aria-controls'))!;
    assert.equal(await page.locator(`[id="${listId}"]`).getAttribute('role'), 'listbox');
    await box.fill('dsgn');
    const first = options().first();
    // Kai's plan there is unread: the option says so.
    assert.equal(await first.getAttribute('aria-label'), '#design-notes in Orchard, 1 unread message');
    assert.equal(await first.getAttribute('aria-selected'), 'true');
    assert.equal(await box.getAttribute('aria-activedescendant'), await first.getAttribute('id'));
    await page.screenshot({ path: join(SHOTS, 'quick-switcher.png') });
    await box.press('Enter');
    await page.getByTestId('converse-title').filter({ hasText: '#design-notes' }).waitFor();
    assert.equal(new URL(page.url()).pathname.split('/').at(-1), design);
    await page.waitForFunction(() => /^(\(\d+\) )?#design-notes · Orchard · /.test(document.title));
  });

  it('marks the unread DM and goes there with the arrows and Enter; in a DM the title names the partner', async () => {
    await page.keyboard.press('Control+k');
    await switcher().fill('@ka');
    const dmOption = options().filter({ hasText: 'kai' }).first();
    await page.waitForFunction(() =>
      Array.from(document.querySelectorAll('[role="option"]')).some((o) =>
        /Direct message with kai, 1 unread message/.test(o.getAttribute('aria-label') ?? ''),
      ),
    );
    assert.match((await dmOption.getAttribute('class'))!, /unread/);
    // The DM is first for "@ka"; move off it and back, then open it.
    await switcher().press('ArrowDown');
    await switcher().press('ArrowUp');
    assert.equal(await options().first().getAttribute('aria-selected'), 'true');
    await switcher().press('Enter');
    await page.waitForURL((url) => url.pathname === `/dm/${dm}`);
    await page.waitForFunction(() => /^(\(\d+\) )?kai · /.test(document.title));
  });

  it('opens from the header too, and hands other words to message search as its last entry', async () => {
    await page.getByRole('button', { name: 'Jump to', exact: true }).click();
    await switcher().fill('harvest');
    const last = options().last();
    assert.equal(await last.innerText(), 'Search messages for “harvest”');
    await switcher().press('ArrowUp');
    assert.equal(await last.getAttribute('aria-selected'), 'true');
    await switcher().press('Enter');
    assert.equal(await searchBox().inputValue(), 'harvest');
    const result = page.getByTestId('search-result');
    await result.first().waitFor();
    assert.equal(await result.count(), 1);
    assert.equal(await result.locator('mark').innerText(), 'harvest');
    await page.keyboard.press('Escape');
    await searchBox().waitFor({ state: 'detached' });
  });

  it('searches with filters on Ctrl+Shift+F: completions, chips, a named bad filter, and a result that opens', async () => {
    await page.keyboard.press('Control+Shift+F');
    const box = searchBox();
    await box.waitFor();
    await box.pressSequentially('plan from:k');
    const offered = page.getByTestId('search-completion');
    await offered.filter({ hasText: '@kai' }).waitFor();
    await box.press('Enter');
    assert.equal(await box.inputValue(), 'plan from:@kai ');
    const chips = page.getByTestId('search-chip');
    await chips.filter({ hasText: 'from:@kai' }).waitFor();
    const results = page.getByTestId('search-result');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="search-result"]').length === 2);
    await box.pressSequentially('in:#des');
    await offered.filter({ hasText: '#design-notes' }).waitFor();
    await box.press('Tab');
    assert.equal(await box.inputValue(), 'plan from:@kai in:#design-notes ');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="search-result"]').length === 1);
    assert.match(await results.first().innerText(), /#design-notes · Orchard/);
    await page.screenshot({ path: join(SHOTS, 'search-filters.png') });

    // Removing the from: chip widens the search again: Zoe's plan is not in design-notes, Kai's is.
    await page.getByRole('button', { name: 'Remove filter from:@kai' }).click();
    assert.equal(await box.inputValue(), 'plan in:#design-notes');
    await chips.filter({ hasText: 'from:@kai' }).waitFor({ state: 'detached' });
    await box.fill('plan has:link');
    await results.filter({ hasText: 'example.org' }).waitFor();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="search-result"]').length === 1);

    await box.fill('plan has:video');
    const alert = page.getByRole('alert');
    await alert.waitFor();
    assert.match(await alert.innerText(), /has:video/);

    await box.fill('harvest from:@kai');
    await results.filter({ hasText: 'harvest' }).click();
    await page.waitForURL((url) => url.pathname.endsWith(`/${general}`));
    const found = page.getByTestId('message-content').filter({ hasText: 'the plan for the harvest' });
    await found.waitFor();
    assert.deepEqual(pageErrors, []);
  });
});
