// Read receipts in the web client, in headless Chromium against the single
// instance: Una writes to Vic in a DM and sees "Seen by" once Vic has read
// it; Vic then stops sharing his receipts in Settings, and Una's next message
// shows no "Seen by" although he read it too.
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import type { DmConverse, ReadReceipt } from '@im/protocol';
import { type Page } from 'playwright-core';
import { api, registerAccount, type Account } from './harness/api.ts';
import { describePagesOnFailure, send } from './harness/app.ts';
import { webAppStory } from './harness/story.ts';
import { openWindow } from './harness/windows.ts';

describe('read receipts in the web client', () => {
  const story = webAppStory(import.meta.url);
  const pages: Record<string, Page> = {};
  const pageErrors: string[] = [];
  let una: Account;
  let vic: Account;
  let dm: DmConverse;
  afterEach(describePagesOnFailure(() => pages));

  const open = (label: string, account: Account) =>
    openWindow(story, { pages, errors: pageErrors }, label, account, `/dm/${dm.id}`);
  const message = (page: Page, text: string) => page.getByTestId('message-content').filter({ hasText: text });

  it('shows Una "Seen by vic" once Vic has read her message', async () => {
    const base = story.server.base;
    [una, vic] = await Promise.all([registerAccount(base, 'una'), registerAccount(base, 'vic')]);
    dm = await api<DmConverse>(base, una.token, 'POST', '/api/dms', { userId: vic.id });
    const unaPage = await open('una', una);
    await send(unaPage, 'Are you there?');
    await message(unaPage, 'Are you there?').waitFor();
    await unaPage.locator('[data-pending]').waitFor({ state: 'detached' });

    const vicPage = await open('vic', vic);
    await message(vicPage, 'Are you there?').waitFor();
    await unaPage.getByTestId('seen-by').filter({ hasText: 'Seen by vic' }).waitFor();
  });

  it('shows no "Seen by" once Vic stops sharing his receipts', async () => {
    const vicPage = pages.vic!;
    await vicPage.getByRole('button', { name: 'Settings' }).click();
    const settings = vicPage.getByRole('dialog', { name: 'Settings' });
    const sharing = settings.getByRole('checkbox', { name: 'Let others see when I have read their messages' });
    assert.equal(await sharing.isChecked(), true);
    await sharing.uncheck();
    // Saved on the server before anything else happens.
    for (let i = 0; ; i += 1) {
      const me = await api<{ shareReadReceipts: boolean }>(story.server.base, vic.token, 'GET', '/api/users/me');
      if (!me.shareReadReceipts) break;
      assert.ok(i < 50, 'the setting was saved');
      await new Promise((r) => setTimeout(r, 100));
    }
    await vicPage.keyboard.press('Escape');

    const unaPage = pages.una!;
    await send(unaPage, 'Still there?');
    // Vic's window comes to the front: the app marks read what is in view of a focused window.
    await vicPage.bringToFront();
    await message(vicPage, 'Still there?').waitFor();
    // Vic read it (his own read position moved), yet nobody is told.
    for (let i = 0; ; i += 1) {
      const unread = await api<Array<{ converseId: string; unread: number }>>(
        story.server.base,
        vic.token,
        'GET',
        '/api/unread',
      );
      if (unread.find((u) => u.converseId === dm.id)?.unread === 0) break;
      assert.ok(i < 100, `Vic read the message: ${JSON.stringify(unread)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const reads = await api<ReadReceipt[]>(story.server.base, una.token, 'GET', `/api/converses/${dm.id}/reads`);
    assert.deepEqual(
      reads.filter((r) => r.userId === vic.id),
      [],
    );
    assert.equal(await unaPage.getByTestId('seen-by').count(), 0);
    assert.deepEqual(pageErrors, []);
  });
});
