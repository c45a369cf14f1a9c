// Message permalinks in headless Chromium against the single instance.
// Vera copies the link of a message in #general (the "Copy link" action),
// pastes it in #random and clicks it: #general opens at that message,
// highlighted. An old message's permalink loaded cold (far older than the
// newest page) opens in context the same way, a thread reply's in its
// thread, and so does the link of an entry of her personal feed.
import assert from 'node:assert/strict';
import { afterEach, before, describe, it } from 'node:test';
import type { FeedToken, Message, Panel } from '@im/protocol';
import { type Locator, type Page } from 'playwright-core';
import { api, groupWithMembers, registerAccount, type Account } from './harness/api.ts';
import { describePagesOnFailure, send } from './harness/app.ts';
import { webAppStory } from './harness/story.ts';
import { openWindow } from './harness/windows.ts';

const HISTORY = 120;

/** Whether the element is inside the message list's visible area (not just in the DOM). */
async function inView(page: Page, element: Locator): Promise<boolean> {
  const [box, list] = await Promise.all([element.boundingBox(), page.getByTestId('message-list').boundingBox()]);
  if (!box || !list) return false;
  return box.y >= list.y - 1 && box.y + box.height <= list.y + list.height + 1;
}

describe('message permalinks in the web client', () => {
  const story = webAppStory(import.meta.url, { RATE_LIMITS: 'send=1000/10' });
  const pages: Record<string, Page> = {};
  const pageErrors: string[] = [];
  let vera: Account;
  let wes: Account;
  let groupId: string;
  let general: string;
  let random: string;
  let page: Page;
  const old: Message[] = [];
  afterEach(describePagesOnFailure(() => pages));

  const content = (text: string) => page.getByTestId('message-content').filter({ hasText: text });
  const title = () => page.getByTestId('converse-title');

  /** The message is in view, highlighted, and the address is its panel's. */
  async function openedAt(text: string, converseId: string): Promise<void> {
    const row = page.locator('.row.highlight').filter({ has: content(text) });
    await row.waitFor();
    assert.ok(await inView(page, content(text)), `"${text}" is in view`);
    await page.waitForURL((url) => url.pathname === `/g/${groupId}/${converseId}` && url.search === '');
  }

  before(async () => {
    const base = story.server.base;
    [vera, wes] = await Promise.all([registerAccount(base, 'vera'), registerAccount(base, 'wes')]);
    ({ groupId, converseId: general } = await groupWithMembers(base, vera, 'Atelier', [wes]));
    const panel = await api<Panel>(base, vera.token, 'POST', `/api/groups/${groupId}/panels`, {
      name: 'random',
      type: 'text',
    });
    random = panel.converseId;
    for (let i = 1; i <= HISTORY; i += 1)
      old.push(
        await api<Message>(base, wes.token, 'POST', `/api/converses/${general}/messages`, { content: `sketch ${i}` }),
      );
    page = await openWindow(story, { pages, errors: pageErrors }, 'vera', vera, `/g/${groupId}/${general}`, {
      permissions: ['clipboard-read', 'clipboard-write'],
    });
  });

  it('copies a message link and opens it from another panel, at the message, highlighted', async () => {
    await content(`sketch ${HISTORY}`).waitFor();
    const message = page.getByTestId('message').filter({ has: content(`sketch ${HISTORY - 1}`) });
    await message.hover();
    await message.getByRole('button', { name: 'Copy link' }).click();
    await page.getByText('Link to the message copied').waitFor();
    const link = await page.evaluate(() => navigator.clipboard.readText());
    const target = old[HISTORY - 2]!;
    assert.equal(link, `${story.server.base}/c/${general}?message=${target.id}`);

    await page.getByTestId('panel-link').filter({ hasText: 'random' }).click();
    await title().filter({ hasText: '#random' }).waitFor();
    await send(page, `see ${link}`);
    await page.locator('[data-pending]').waitFor({ state: 'detached' });
    await page.getByTestId('message-content').getByRole('link', { name: link }).click();
    await title().filter({ hasText: '#general' }).waitFor();
    await openedAt(`sketch ${HISTORY - 1}`, general);
    // Opened in this tab, with the panel before it kept in the history.
    assert.equal(page.context().pages().length, 1);
    await page.goBack();
    await title().filter({ hasText: '#random' }).waitFor();
  });

  it('opens an old message from its permalink loaded cold, in context', async () => {
    const target = old[4]!;
    await page.goto(`${story.server.base}/c/${general}?message=${target.id}`);
    await title().filter({ hasText: '#general' }).waitFor();
    await openedAt('sketch 5', general);
    // In context: its neighbours are there, the newest page is not.
    await content('sketch 6').waitFor();
    assert.equal(await content(`sketch ${HISTORY}`).count(), 0);
    await page.getByTestId('jump-to-present').waitFor();
  });

  it("opens a thread reply's permalink in its thread", async () => {
    const base = story.server.base;
    const root = old[HISTORY - 1]!;
    const reply = await api<Message>(base, wes.token, 'POST', `/api/converses/${general}/messages`, {
      content: 'a reply in the thread',
      threadId: root.id,
    });
    await page.goto(`${base}/c/${general}?message=${reply.id}`);
    const pane = page.getByTestId('thread-pane');
    await pane.getByTestId('thread-reply').filter({ hasText: 'a reply in the thread' }).waitFor();
    await page.waitForURL((url) => url.pathname === `/g/${groupId}/${general}`);
  });

  it("opens an entry of the personal feed at its message: the feed's links are permalinks", async () => {
    const base = story.server.base;
    const { token } = await api<FeedToken>(base, vera.token, 'POST', '/api/feeds/token');
    const feed = await (await fetch(`${base}/feeds/${token}/converses/${general}.atom`)).text();
    const target = old[HISTORY - 40]!;
    const entry = feed.split('<entry>').find((e) => e.includes(`sketch ${HISTORY - 39}`));
    assert.ok(entry, 'the message is in the feed');
    const href = /<link rel="alternate" type="text\/html" href="([^"]+)"/.exec(entry)![1]!;
    const url = new URL(href);
    assert.equal(`${url.pathname}${url.search}`, `/c/${general}?message=${target.id}`);
    await page.goto(`${base}/g/${groupId}/${random}`);
    await title().filter({ hasText: '#random' }).waitFor();
    await page.goto(`${base}${url.pathname}${url.search}`);
    await openedAt(`sketch ${HISTORY - 39}`, general);
    assert.deepEqual(pageErrors, []);
  });
});
