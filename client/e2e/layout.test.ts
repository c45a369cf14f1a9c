// The app's layout on a phone-sized screen (390x844), which only a real
// browser can show: a 60-character panel name does not squeeze the group rail
// (every group, Direct messages, Explore and the settings gear stay in reach),
// and a profile card opened near the screen's edge stays inside it.
import assert from 'node:assert/strict';
import { afterEach, before, describe, it } from 'node:test';
import { type Locator, type Page } from 'playwright-core';
import { openAs, registerAccount, groupWithMembers, typedApi, type Account } from './harness/api.ts';
import { collectPageErrors, describePagesOnFailure } from './harness/app.ts';
import { webAppStory } from './harness/story.ts';
import { STEP_DEADLINE_MS } from './harness/deadline.ts';

const PHONE = { width: 390, height: 844 };
const LONG_NAME = 'a-very-long-panel-name-for-planning-the-next-quarter-releases';

/** Whether a click at the element's centre would reach it, inside the screen. */
async function reachable(item: Locator): Promise<boolean> {
  const box = await item.boundingBox();
  if (!box || box.width === 0 || box.x < 0 || box.x + box.width > PHONE.width) return false;
  await item.click({ trial: true });
  return true;
}

describe('layout in Chromium on a phone-sized screen', () => {
  const story = webAppStory(import.meta.url);
  const pageErrors: string[] = [];
  let page: Page;
  let owner: Account;
  let groupId: string;

  afterEach(describePagesOnFailure(() => ({ owner: page })));

  before(async () => {
    owner = await registerAccount(story.server.base, 'olga');
    const buddy = await registerAccount(story.server.base, 'bert');
    ({ groupId } = await groupWithMembers(story.server.base, owner, 'Planners', [buddy]));
    await groupWithMembers(story.server.base, owner, 'Second group', []);
    const panel = await typedApi(story.server.base, owner.token).call('group.createPanel', {
      groupId,
      name: LONG_NAME,
      type: 'text',
    });
    await typedApi(story.server.base, buddy.token).call('chat.send', {
      converseId: panel.converseId,
      content: 'hello from bert',
    });
    const context = await story.browser.newContext({ viewport: PHONE });
    context.setDefaultTimeout(STEP_DEADLINE_MS);
    page = await context.newPage();
    collectPageErrors(page, 'olga', pageErrors);
    // Home first: on a phone the list (with the gear openAs waits for) shows until a converse opens.
    await openAs(page, story.server.base, owner);
    await page.goto(`${story.server.base}/g/${groupId}/${panel.converseId}`);
  });

  it('keeps the group rail and the settings gear in reach beside a 60-character panel name', async () => {
    assert.equal(LONG_NAME.length, 61);
    await page.getByTestId('converse-title').filter({ hasText: LONG_NAME }).waitFor();
    await page.getByRole('button', { name: 'Back to the list' }).click();
    const rail = page.getByRole('navigation', { name: 'Groups' });
    await rail.waitFor();
    const width = (await rail.boundingBox())!.width;
    assert.ok(width > 0, `the rail is ${width} px wide`);
    const items = rail.getByRole('button');
    const names = await items.evaluateAll((all) => all.map((b) => b.getAttribute('aria-label')));
    assert.ok(names.includes('Second group') && names.includes('Explore public groups'), names.join(', '));
    for (let i = 0; i < names.length; i++) {
      assert.ok(await reachable(items.nth(i)), `rail item ${names[i]} can be clicked`);
    }
    assert.ok(await reachable(page.getByRole('button', { name: 'Settings' })), 'the settings gear can be clicked');
    // The long name is cut with an ellipsis, its whole text in the tooltip.
    const name = page.getByTestId('panel-link').filter({ hasText: LONG_NAME }).locator('.channel-name');
    assert.equal(await name.getAttribute('title'), LONG_NAME);
    assert.equal(await name.evaluate((e) => e.scrollWidth > e.clientWidth), true);
    // And the rail still works: another group opens.
    await rail.getByRole('button', { name: 'Second group' }).click();
    await page.getByTestId('converse-title').filter({ hasText: '#general' }).waitFor();
  });

  it('keeps a profile card inside the screen', async () => {
    await page.getByRole('button', { name: 'Back to the list' }).click();
    await page.getByRole('navigation', { name: 'Groups' }).getByRole('button', { name: 'Planners' }).click();
    await page.getByTestId('converse-title').filter({ hasText: '#general' }).waitFor();
    await page.getByRole('button', { name: 'Back to the list' }).click();
    await page.getByTestId('panel-link').filter({ hasText: LONG_NAME }).click();
    await page.getByRole('button', { name: 'bert', exact: true }).first().click();
    const card = page.getByRole('dialog', { name: 'Profile of bert' });
    await card.waitFor();
    const box = (await card.boundingBox())!;
    assert.ok(box.x >= 0 && box.x + box.width <= PHONE.width, `card from ${box.x} to ${box.x + box.width}`);
    assert.ok(box.y >= 0 && box.y + box.height <= PHONE.height, `card from ${box.y} to ${box.y + box.height}`);
    await card.getByRole('button', { name: 'Message' }).click({ trial: true });
    assert.deepEqual(pageErrors, []);
  });
  it('gives Settings a section navigation, and keeps the group settings tab bar in place between tabs', async () => {
    await page.getByRole('button', { name: 'Back to the list' }).click();
    await page.getByRole('button', { name: 'Settings' }).click();
    const settings = page.getByRole('dialog', { name: 'Settings' });
    const nav = settings.getByRole('navigation', { name: 'Settings sections' });
    await nav.getByRole('button', { name: 'Sessions' }).click();
    await settings.getByTestId('settings-sessions').getByRole('heading', { name: 'Sessions', level: 2 }).waitFor();
    await page.waitForFunction(() => {
      const section = document.querySelector('[data-testid="settings-sessions"]')!.getBoundingClientRect();
      const body = document.querySelector('.settings-body')!.getBoundingClientRect();
      return section.top >= body.top - 1 && section.top < body.bottom;
    });
    // Each section's title is its one heading, naming the section (not said again inside it).
    for (const [id, title] of [
      ['language', 'Language'],
      ['sessions', 'Sessions'],
      ['data', 'Data'],
    ] as const) {
      const section = settings.getByRole('region', { name: title, exact: true });
      assert.equal(await section.getAttribute('data-testid'), `settings-${id}`);
      const headings = await section.getByRole('heading').allInnerTexts();
      assert.equal(headings.filter((h) => h.toLowerCase().includes(title.toLowerCase())).length, 1, headings.join());
    }
    await settings.getByRole('combobox', { name: 'Language' }).waitFor();
    await page.keyboard.press('Escape');
    await settings.waitFor({ state: 'detached' });

    await page.getByRole('button', { name: 'Planners: group menu' }).click();
    await page.getByRole('menuitem', { name: 'Group settings' }).click();
    const group = page.getByRole('dialog', { name: 'Planners settings' });
    const tabBar = group.getByRole('tablist');
    const place = async () => {
      const box = (await tabBar.boundingBox())!;
      return { y: Math.round(box.y), height: Math.round(box.height) };
    };
    const first = await place();
    for (const tab of ['Invites', 'Audit log', 'Members']) {
      await group.getByRole('tab', { name: tab }).click();
      await group.getByRole('tab', { name: tab, selected: true }).waitFor();
      assert.deepEqual(await place(), first, `the tab bar stays put on ${tab}`);
    }
    assert.deepEqual(pageErrors, []);
  });
});
