// Scheduled messages and reminders in the web client, in headless Chromium
// against the single instance: Ann and Ben are in a group. Ann writes a
// message and, with "Send later" and a time of her own a few seconds ahead,
// schedules it: the converse says one message is scheduled, and her list of
// scheduled messages shows it. At its time it reaches Ben's open app, and
// Ann's hint goes away. Ben asks to be reminded of it a few seconds later:
// the app confirms, and when the time comes a toast shows the reminder and
// his inbox holds a reminder entry for the message. Setup goes through the
// API; the story through the UI.
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import type { NotificationPage } from '@im/protocol';
import { type Page } from 'playwright-core';
import { api, groupWithMembers, registerAccount, type Account } from './harness/api.ts';
import { describePagesOnFailure } from './harness/app.ts';
import { webAppStory } from './harness/story.ts';
import { openWindow } from './harness/windows.ts';

const TEXT = 'Standup moved to 10:30 today';

/** A time `seconds` ahead as the page's date and time field takes it (the browser's local time, to the second). */
const aheadInPage = (page: Page, seconds: number) =>
  page.evaluate((s) => {
    const at = new Date(Date.now() + s * 1000);
    const pad = (n: number) => String(n).padStart(2, '0');
    return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}:${pad(at.getSeconds())}`;
  }, seconds);

describe('scheduled messages and reminders in the web client', () => {
  const story = webAppStory(import.meta.url, { SCHEDULE_POLL_MS: '500' });
  const pages: Record<string, Page> = {};
  const windows = { pages, errors: [] as string[] };
  let ann: Account;
  let ben: Account;
  let messageId = '';

  afterEach(describePagesOnFailure(() => pages));

  it('sets up (API): Ann and Ben in a group, both apps open on its first panel', async () => {
    const base = story.server.base;
    [ann, ben] = await Promise.all([registerAccount(base, 'ann'), registerAccount(base, 'ben')]);
    const { groupId, converseId } = await groupWithMembers(base, ann, 'Office', [ben]);
    await openWindow(story, windows, 'ann', ann, `/g/${groupId}/${converseId}`);
    await openWindow(story, windows, 'ben', ben, `/g/${groupId}/${converseId}`);
  });

  it('lets Ann schedule a message a few seconds ahead with "Send later", and shows it scheduled', async () => {
    const page = pages.ann!;
    await page.getByRole('textbox', { name: 'Message' }).fill(TEXT);
    await page.getByRole('button', { name: 'Send later' }).click();
    const menu = page.getByRole('menu', { name: 'Send later' });
    await menu.getByRole('menuitem', { name: 'Tomorrow 9:00' }).waitFor();
    await menu.getByLabel('Date and time').fill(await aheadInPage(page, 8));
    await menu.getByRole('button', { name: 'Schedule' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /^Scheduled for (today|tomorrow)/ })
      .waitFor();
    assert.equal(await page.getByRole('textbox', { name: 'Message' }).inputValue(), '', 'the composer is emptied');
    const hint = page.getByTestId('scheduled-hint');
    await hint.getByText('1 message scheduled here').waitFor();
    await hint.getByRole('button', { name: 'See scheduled' }).click();
    const list = page.getByRole('dialog', { name: 'Scheduled messages' });
    await list.getByTestId('scheduled-row').filter({ hasText: TEXT }).waitFor();
    assert.ok(await list.getByRole('button', { name: 'Send now' }).isVisible());
    await page.keyboard.press('Escape');
    await list.waitFor({ state: 'detached' });
    assert.equal(await pages.ben!.getByText(TEXT).count(), 0, 'Ben sees nothing before its time');
  });

  it("delivers it at its time to Ben's open app, and Ann's hint goes", async () => {
    const shown = pages.ben!.getByTestId('message-content').filter({ hasText: TEXT });
    await shown.waitFor({ timeout: 30_000 });
    await pages.ann!.getByTestId('scheduled-hint').waitFor({ state: 'detached' });
    const history = await api<Array<{ id: string; content: string }>>(
      story.server.base,
      ben.token,
      'GET',
      `/api/converses/${(await pages.ben!.evaluate(() => location.pathname)).split('/')[3]}/messages`,
    );
    const sent = history.filter((m) => m.content === TEXT);
    assert.equal(sent.length, 1, 'sent once');
    messageId = sent[0]!.id;
  });

  it('lets Ben set a reminder on it: a confirmation, then at its time a toast and an inbox entry', async () => {
    const page = pages.ben!;
    const message = page.getByRole('article', { name: new RegExp(`: ${TEXT}`) });
    await message.hover();
    await message.getByRole('button', { name: 'Remind me', exact: true }).first().click();
    const menu = page.getByRole('menu', { name: 'Remind me' });
    await menu.getByRole('menuitem', { name: 'In 20 minutes' }).waitFor();
    await menu.getByLabel('Date and time').fill(await aheadInPage(page, 4));
    await menu.getByRole('button', { name: 'Remind me' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /^I will remind you (today|tomorrow)/ })
      .waitFor();
    await page
      .getByRole('status')
      .filter({ hasText: `Reminder: ${TEXT}` })
      .waitFor({ timeout: 30_000 });
    const inbox = await api<NotificationPage>(story.server.base, ben.token, 'GET', '/api/notifications');
    const entry = inbox.items.find((n) => n.messageId === messageId);
    assert.equal(entry?.type, 'reminder');
    assert.deepEqual(windows.errors, []);
  });
});
