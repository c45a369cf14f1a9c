// The app by keyboard alone: the message list is one Tab stop that the arrow
// keys move through (its messages named by what they show), a skip link goes
// straight to the composer, menus take the arrows and give focus back,
// Up-arrow in the empty composer edits my last message, `:shortcode:` offers
// emoji, and focus lands where the user acted (a search result, the next
// message after a delete).
import assert from 'node:assert/strict';
import { afterEach, before, describe, it } from 'node:test';
import { type Page } from 'playwright-core';
import { api, groupWithMembers, openAs, registerAccount, type Account } from './harness/api.ts';
import { collectPageErrors, describePagesOnFailure } from './harness/app.ts';
import { STEP_DEADLINE_MS } from './harness/deadline.ts';
import { webAppStory } from './harness/story.ts';

/** Messages in the panel before the page opens: more than the screen holds. */
const HISTORY = 40;
/** Tab stops from the message list's one to the composer (that one included). */
const MAX_FROM_LIST = 5;

/**
 * Starts the next Tab at the page's top: a blur alone leaves the browser's
 * starting point where focus was.
 */
const fromTop = (page: Page) =>
  page.evaluate(() => {
    const start = document.createElement('div');
    start.tabIndex = -1;
    document.body.prepend(start);
    start.focus();
    start.remove();
  });

/** What has focus: its tag, accessible name and text, for asserts and failure messages. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement;
    return {
      tag: el?.tagName.toLowerCase() ?? '',
      label: el?.getAttribute('aria-label') ?? '',
      text: (el?.textContent ?? '').trim().slice(0, 80),
      message: el?.getAttribute('data-testid') === 'message',
      seq: Number(el?.getAttribute('data-seq') ?? NaN),
    };
  });

describe('keyboard in Chromium: one Tab stop for the list, arrows, menus, Up-arrow edit, :shortcode:', () => {
  const story = webAppStory(import.meta.url);
  const pageErrors: string[] = [];
  let page: Page;
  let kira: Account;
  let converseId: string;
  let groupId: string;

  afterEach(describePagesOnFailure(() => ({ kira: page })));

  before(async () => {
    const base = story.server.base;
    kira = await registerAccount(base, 'kira');
    const lev = await registerAccount(base, 'lev');
    ({ groupId, converseId } = await groupWithMembers(base, kira, 'Keys', [lev]));
    for (let i = 1; i <= HISTORY; i += 1) {
      const author = i % 3 === 0 ? kira : lev;
      const content = i === 5 ? `note ${i} zebrafish` : `note ${i}`;
      await api(base, author.token, 'POST', `/api/converses/${converseId}/messages`, { content });
    }
    await api(base, lev.token, 'POST', `/api/converses/${converseId}/messages`, {
      content: 'the **bold** plan and `code`',
    });
    await api(base, kira.token, 'POST', `/api/converses/${converseId}/messages`, { content: 'my last word' });
    const context = await story.browser.newContext({ viewport: { width: 1280, height: 900 } });
    context.setDefaultTimeout(STEP_DEADLINE_MS);
    page = await context.newPage();
    collectPageErrors(page, 'kira', pageErrors);
    await openAs(page, base, kira, `/g/${groupId}/${converseId}`);
    await page.getByTestId('message-content').filter({ hasText: 'my last word' }).waitFor();
  });

  it('reaches the composer from the page top in a few Tab presses; the skip link in one', async () => {
    const composer = page.getByRole('textbox', { name: 'Message' });
    await fromTop(page);
    await page.keyboard.press('Tab');
    assert.equal((await focused(page)).text, 'Skip to composer', 'the first Tab stop is the skip link');
    await page.keyboard.press('Enter');
    assert.ok(await composer.evaluate((e) => e === document.activeElement), 'the skip link goes to the composer');

    // Without it: Tab by Tab, the list of 42 messages counts once.
    await fromTop(page);
    let tabs = 0;
    let messageStops = 0;
    const stops: string[] = [];
    while (!(await composer.evaluate((e) => e === document.activeElement))) {
      assert.ok(tabs < 60, `the composer is reached (now on ${JSON.stringify(await focused(page))})`);
      await page.keyboard.press('Tab');
      tabs += 1;
      const now = await focused(page);
      stops.push(now.label || now.text);
      if (now.message) messageStops += 1;
    }
    console.log(`Tab presses from the page top to the composer: ${tabs}: ${stops.join(' | ')}`);
    assert.equal(messageStops, 1, 'the message list is one Tab stop');
    // From the list to the composer: the message, its author, its actions (one stop), attach, composer.
    const fromList = stops.length - stops.findIndex((s) => s.includes('my last word'));
    assert.ok(fromList <= MAX_FROM_LIST, `${fromList} Tab stops from the list to the composer: ${stops.join(' | ')}`);
    assert.deepEqual(pageErrors, []);
  });

  it('moves between messages with the arrows, Home and End; names each by its rendered text', async () => {
    await fromTop(page);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    assert.equal((await focused(page)).text, 'Skip to messages');
    await page.keyboard.press('Enter');
    const newest = await focused(page);
    assert.ok(newest.message, 'the skip link goes to the messages');
    assert.match(newest.label, /^kira, \d{1,2}:\d{2}.*: my last word$/);

    await page.keyboard.press('ArrowUp');
    const bold = await focused(page);
    // Rendered text, not Markdown: no asterisks or backticks.
    assert.match(bold.label, /^lev, \d{1,2}:\d{2}.*: the bold plan and code$/);
    assert.equal(bold.seq, newest.seq - 1);
    // The focused message shows its actions.
    const actions = page.locator('article:focus .message-actions');
    assert.equal(await actions.evaluate((e) => getComputedStyle(e).opacity), '1');

    await page.keyboard.press('ArrowDown');
    assert.equal((await focused(page)).seq, newest.seq);
    await page.keyboard.press('Home');
    await page.waitForFunction(
      (seq) => Number(document.activeElement?.getAttribute('data-seq')) < seq - 20,
      newest.seq,
    );
    const top = await focused(page);
    assert.ok(top.message);
    await page.keyboard.press('End');
    await page.waitForFunction((seq) => Number(document.activeElement?.getAttribute('data-seq')) === seq, newest.seq);
    await page.keyboard.press('PageUp');
    await page.waitForFunction((seq) => Number(document.activeElement?.getAttribute('data-seq')) < seq - 3, newest.seq);

    // Tab goes into the focused message's controls, Escape back to the message.
    await page.keyboard.press('End');
    await page.waitForFunction((seq) => Number(document.activeElement?.getAttribute('data-seq')) === seq, newest.seq);
    await page.keyboard.press('Tab');
    const inside = await page.evaluate(
      () => document.activeElement?.closest('article')?.getAttribute('data-seq') ?? null,
    );
    assert.equal(Number(inside), newest.seq, 'Tab goes into the message');
    // Its actions are a toolbar: one Tab stop, the arrows move in it.
    await page.getByRole('toolbar', { name: 'Message actions' }).getByRole('button').first().waitFor();
    for (let i = 0; i < 3 && (await focused(page)).label !== 'Add reaction'; i += 1) await page.keyboard.press('Tab');
    assert.equal((await focused(page)).label, 'Add reaction', 'Tab reaches the actions');
    await page.keyboard.press('ArrowRight');
    assert.notEqual((await focused(page)).label, 'Add reaction');
    await page.keyboard.press('Home');
    assert.equal((await focused(page)).label, 'Add reaction');
    await page.keyboard.press('Escape');
    assert.equal((await focused(page)).seq, newest.seq, 'Escape returns to the message');
  });

  it('opens a menu on its first item, moves with the arrows, closes with Escape back on its button', async () => {
    const button = page.getByTestId('converse-notifications');
    await button.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('menu', { name: 'Notifications' }).waitFor();
    assert.equal((await focused(page)).text, 'All messages', 'focus on the first item');
    await page.keyboard.press('ArrowDown');
    assert.equal((await focused(page)).text, 'Mentions only');
    await page.keyboard.press('End');
    assert.equal((await focused(page)).text, 'Mute until I turn it back on');
    await page.keyboard.press('ArrowDown');
    assert.equal((await focused(page)).text, 'All messages', 'round the end');
    await page.keyboard.press('ArrowUp');
    assert.equal((await focused(page)).text, 'Mute until I turn it back on');
    await page.keyboard.press('Escape');
    await page.getByRole('menu').waitFor({ state: 'detached' });
    assert.ok(await button.evaluate((e) => e === document.activeElement), 'focus back on the button');
  });

  it('edits my last message with Up-arrow in the empty composer: Escape cancels, Enter saves', async () => {
    const composer = page.getByRole('textbox', { name: 'Message' });
    await composer.focus();
    await page.keyboard.press('ArrowUp');
    const edit = page.getByRole('textbox', { name: 'Edit message' });
    await edit.waitFor();
    assert.equal(await edit.inputValue(), 'my last word');
    await page.keyboard.press('Escape');
    await edit.waitFor({ state: 'detached' });
    await page.waitForFunction(() => document.activeElement?.getAttribute('aria-label') === 'Message');

    await page.keyboard.press('ArrowUp');
    await edit.waitFor();
    await page.keyboard.type(', edited');
    await page.keyboard.press('Enter');
    await page.getByTestId('message-content').filter({ hasText: 'my last word, edited' }).waitFor();
    await edit.waitFor({ state: 'detached' });
    await page.waitForFunction(() => document.activeElement?.getAttribute('aria-label') === 'Message');
  });

  it('offers emoji for :shortcode: and turns a typed :code: into its emoji', async () => {
    const composer = page.getByRole('textbox', { name: 'Message' });
    await composer.focus();
    await page.keyboard.type('launch :rock');
    const menu = page.getByRole('listbox', { name: 'Matching emoji' });
    await menu.waitFor();
    const rocket = menu.getByRole('option', { name: ':rocket:' });
    await rocket.waitFor();
    // The arrows move to it, Enter puts it in.
    const options = await menu.getByRole('option').allInnerTexts();
    const at = options.findIndex((o) => o.includes(':rocket:'));
    for (let i = 0; i < at; i += 1) await page.keyboard.press('ArrowDown');
    assert.equal(await rocket.getAttribute('aria-selected'), 'true');
    await page.keyboard.press('Enter');
    await menu.waitFor({ state: 'detached' });
    assert.equal(await composer.inputValue(), 'launch 🚀');

    await page.keyboard.type(' party :tada: now');
    assert.equal(await composer.inputValue(), 'launch 🚀 party 🎉 now');
    await page.keyboard.press('Enter');
    await page.getByTestId('message-content').filter({ hasText: 'launch 🚀 party 🎉 now' }).waitFor();
    assert.ok(await composer.evaluate((e) => e === document.activeElement), 'focus stays in the composer');
  });

  it('opens the emoji picker on a category with emoji when nothing was used yet', async () => {
    await page.evaluate(() => localStorage.removeItem('im.emoji.recent'));
    await page.getByRole('button', { name: 'Insert emoji' }).click();
    const picker = page.getByRole('dialog', { name: 'Insert emoji' });
    await picker.waitFor();
    await picker.getByRole('region', { name: 'Smileys & emotion' }).waitFor();
    assert.ok((await picker.getByRole('region').first().getByRole('button').count()) > 10);
    await page.keyboard.press('Escape');
    await picker.waitFor({ state: 'detached' });
  });

  it('moves focus to the next message after deleting one, and to a search result opened', async () => {
    const doomed = page.getByRole('article').filter({ hasText: 'note 39' });
    await doomed.focus();
    const doomedSeq = Number(await doomed.getAttribute('data-seq'));
    await doomed.getByRole('button', { name: 'Delete' }).click();
    // The app asks in its own confirmation dialog.
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete', exact: true }).click();
    await page.waitForFunction(
      (seq) => Number(document.activeElement?.getAttribute('data-seq')) === seq + 1,
      doomedSeq,
    );
    await page.locator('.tombstone').waitFor();

    await page.keyboard.press('Control+Shift+F');
    const box = page.getByRole('combobox', { name: 'Search messages' });
    await box.fill('zebrafish');
    const result = page.getByTestId('search-result');
    await result.first().waitFor();
    await box.press('Enter');
    await page.waitForFunction(() =>
      /: note 5 zebrafish$/.test(document.activeElement?.getAttribute('aria-label') ?? ''),
    );
    assert.deepEqual(pageErrors, []);
  });
});
