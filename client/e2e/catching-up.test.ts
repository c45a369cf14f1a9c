// Catching up in the web client, in headless Chromium against the single
// instance: Kai posts 120 messages while Mara is away. Her tab's title counts
// them; opening the panel shows the "New messages" divider with the first
// unread message in view (not the newest); "Jump to present" takes her to the
// newest and clears the count; Ctrl+Shift+F search finds an old message and
// opens it in context, highlighted.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { type Locator, type Page } from 'playwright-core';
import { api, groupWithMembers, registerAccount, type Account } from './harness/api.ts';
import { describePagesOnFailure } from './harness/app.ts';
import { SHOTS } from './harness/server.ts';
import { webAppStory } from './harness/story.ts';
import { openWindow } from './harness/windows.ts';

const OLD = 30;
const AWAY = 120;
const OLD_WORD = 'pineapple';

/** Whether the element is inside the message list's visible area (not just in the DOM). */
async function inView(page: Page, element: Locator): Promise<boolean> {
  const [box, list] = await Promise.all([element.boundingBox(), page.getByTestId('message-list').boundingBox()]);
  if (!box || !list) return false;
  return box.y >= list.y - 1 && box.y + box.height <= list.y + list.height + 1;
}

describe('catching up in the web client', () => {
  // 150 messages in a few seconds are over the default send limit.
  const story = webAppStory(import.meta.url, { RATE_LIMITS: 'send=1000/10' });
  const pages: Record<string, Page> = {};
  const pageErrors: string[] = [];
  let mara: Account;
  let kai: Account;
  let converseId: string;
  let page: Page;

  afterEach(describePagesOnFailure(() => pages));

  const post = (content: string) =>
    api(story.server.base, kai.token, 'POST', `/api/converses/${converseId}/messages`, { content });
  const content = (text: string | RegExp) => page.getByTestId('message-content').filter({ hasText: text });

  it('counts what Kai posted while Mara was away in her tab title', async () => {
    const base = story.server.base;
    mara = await registerAccount(base, 'mara');
    kai = await registerAccount(base, 'kai');
    ({ converseId } = await groupWithMembers(base, mara, 'Orchard', [kai]));
    // What Mara has read: the first 30, one of them about the pineapple.
    for (let i = 1; i <= OLD; i += 1)
      await post(i === 5 ? `old note ${i}: the ${OLD_WORD} plan is on` : `old note ${i}`);
    await api(base, mara.token, 'POST', `/api/converses/${converseId}/ack`, { seq: OLD });
    for (let i = 1; i <= AWAY; i += 1) await post(`update ${i}`);

    page = await openWindow(story, { pages, errors: pageErrors }, 'mara', mara);
    await page.waitForFunction((n) => document.title === `(${n}) Loquat`, AWAY);
  });

  it('opens the panel at the "New messages" divider, the first unread in view', async () => {
    await page.getByRole('navigation', { name: 'Groups' }).getByLabel('Orchard').click();
    const divider = page.getByTestId('new-messages');
    await divider.waitFor();
    const firstUnread = content(/^update 1$/);
    await firstUnread.waitFor();
    assert.ok(await inView(page, divider), 'the divider is in view');
    assert.ok(await inView(page, firstUnread), 'the first unread message is in view');
    // The divider sits right above the first unread message, after the last one read.
    const dividedRow = page.locator('.row', { has: divider });
    assert.equal(await dividedRow.getByTestId('message-content').innerText(), 'update 1');
    assert.equal(await content(`update ${AWAY}`).count(), 0, 'the newest is not what opens');
    // Nothing was marked read by opening above it.
    assert.equal(await page.title(), `(${AWAY}) #general · Orchard · Loquat`);
    await page.screenshot({ path: join(SHOTS, 'catching-up-divider.png') });
  });

  it('jumps to the newest with "Jump to present", and the count goes', async () => {
    await page.getByTestId('jump-to-present').click();
    const newest = content(`update ${AWAY}`);
    await newest.waitFor();
    await page.waitForFunction(() => document.title === '#general · Orchard · Loquat');
    assert.ok(await inView(page, newest), 'the newest message is in view');
    await page.getByTestId('jump-to-present').waitFor({ state: 'detached' });
  });

  it('finds an old message with Ctrl+Shift+F and shows it in context, highlighted', async () => {
    await page.getByTestId('message-list').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('Control+Shift+F');
    const box = page.getByRole('combobox', { name: 'Search messages' });
    await box.fill(OLD_WORD);
    const result = page.getByTestId('search-result');
    await result.first().waitFor();
    assert.equal(await result.count(), 1);
    assert.equal(await result.locator('mark').innerText(), OLD_WORD);
    assert.match(await result.innerText(), /kai/);
    assert.match(await result.innerText(), /#general · Orchard/);
    await page.screenshot({ path: join(SHOTS, 'catching-up-search.png') });
    await box.press('Enter');

    const found = content(`the ${OLD_WORD} plan`);
    await found.waitFor();
    // Highlighted for a moment after it shows: checked first.
    assert.equal(
      await page.locator('.row.highlight').getByTestId('message-content').innerText(),
      await found.innerText(),
    );
    assert.ok(await inView(page, found), 'the message found is in view');
    // In context: its neighbours are there, the newest page is not.
    await content('old note 4').waitFor();
    await content('old note 6').waitFor();
    assert.equal(await content(`update ${AWAY}`).count(), 0);
    await page.getByTestId('jump-to-present').waitFor();
    assert.deepEqual(pageErrors, []);
  });
});
