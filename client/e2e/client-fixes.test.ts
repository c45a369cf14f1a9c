// Layout and keyboard fixes of the web client that only a real browser can
// show (jsdom has no layout and no stylesheet): a long panel name stays on
// one line with an ellipsis, the admin tools hidden on a panel row take no
// room from it, typed text in a form field is normal text, and a menu opened
// in the page closes on Escape and on a click outside.
import assert from 'node:assert/strict';
import { afterEach, before, describe, it } from 'node:test';
import { type Page } from 'playwright-core';
import { api } from './harness/api.ts';
import { collectPageErrors, describePagesOnFailure, register } from './harness/app.ts';
import { webAppStory } from './harness/story.ts';
import { STEP_DEADLINE_MS } from './harness/deadline.ts';

const LONG = 'release-planning-and-coordination-for-the-next-quarter';

describe('client fixes in Chromium: sidebar, form fields, menus', () => {
  const story = webAppStory(import.meta.url);
  const pageErrors: string[] = [];
  let page: Page;

  afterEach(describePagesOnFailure(() => ({ nina: page })));

  before(async () => {
    const context = await story.browser.newContext({ viewport: { width: 1280, height: 900 } });
    context.setDefaultTimeout(STEP_DEADLINE_MS);
    page = await context.newPage();
    collectPageErrors(page, 'nina', pageErrors);
    await register(page, story.server.base, 'nina');
    const token = (await page.evaluate(() => localStorage.getItem('im.token')))!;
    await page.getByRole('button', { name: 'Create a group' }).first().click();
    await page.getByLabel('Group name').fill('Planners');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.getByTestId('converse-title').filter({ hasText: '#general' }).waitFor();
    const [, , groupId] = new URL(page.url()).pathname.split('/');
    await api(story.server.base, token, 'POST', `/api/groups/${groupId}/panels`, { name: LONG, type: 'text' });
  });

  it('keeps a long panel name on one line, cut with an ellipsis, with no room kept for hidden tools', async () => {
    const link = page.getByTestId('panel-link').filter({ hasText: LONG });
    await link.waitFor();
    const general = page.getByTestId('panel-link').filter({ hasText: 'general' });
    const name = link.locator('.channel-name');
    const shape = await name.evaluate((e) => {
      const style = getComputedStyle(e);
      return {
        cut: e.scrollWidth > e.clientWidth,
        ellipsis: style.textOverflow,
        nowrap: style.whiteSpace,
        tall: e.getBoundingClientRect().height,
      };
    });
    assert.equal(shape.cut, true, 'the name is longer than the row');
    assert.equal(shape.ellipsis, 'ellipsis');
    assert.equal(shape.nowrap, 'nowrap');
    // One line: the row is as tall as a row with a short name.
    assert.equal((await link.boundingBox())!.height, (await general.boundingBox())!.height);
    // The row's button reaches the row's end: the hidden tools are laid over it, not beside it.
    const row = await link.evaluate((e) => {
      const li = e.closest('li')!.getBoundingClientRect();
      const button = e.getBoundingClientRect();
      return { liRight: li.right, buttonRight: button.right };
    });
    assert.equal(row.buttonRight, row.liRight);
    // Hovered, the tools show up over the row's end and stay usable.
    await link.hover();
    const edit = page.getByRole('button', { name: `Edit panel ${LONG}` });
    assert.equal(await edit.evaluate((e) => getComputedStyle(e.closest('.channel-tools')!).opacity), '1');
  });

  it('shows text typed in a form field at normal size and colour', async () => {
    await page.getByRole('button', { name: 'Planners: group menu' }).click();
    await page.getByRole('menuitem', { name: 'Create panel' }).click();
    const dialog = page.getByRole('dialog');
    const field = dialog.getByRole('textbox').first();
    await field.fill('typed');
    const [typed, label, body] = await Promise.all([
      field.evaluate((e) => ({ size: getComputedStyle(e).fontSize, color: getComputedStyle(e).color })),
      field.evaluate((e) => getComputedStyle(e.closest('label') ?? e.parentElement!).color),
      page.evaluate(() => ({
        size: getComputedStyle(document.body).fontSize,
        color: getComputedStyle(document.body).color,
      })),
    ]);
    assert.equal(typed.size, body.size, 'typed text is the size of body text');
    assert.equal(typed.color, body.color, 'typed text is the colour of body text');
    assert.notEqual(typed.color, label, 'not the grey of the label');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });

  it('closes a menu on Escape and on a click outside', async () => {
    const button = page.getByRole('button', { name: 'Planners: group menu' });
    await button.click();
    await page.getByRole('menu').waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('menu').waitFor({ state: 'detached' });
    assert.equal(await button.evaluate((e) => e === document.activeElement), true);
    await button.click();
    await page.getByRole('menu').waitFor();
    await page.getByTestId('converse-title').click();
    await page.getByRole('menu').waitFor({ state: 'detached' });
    assert.deepEqual(pageErrors, []);
  });
});
