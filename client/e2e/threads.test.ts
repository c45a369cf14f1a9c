// Threads and pins in the web client, in headless Chromium against the single
// instance: Ada and Ben hold a conversation in a thread (Ada replies in a
// thread, Ben sees "1 reply" under the root, opens the pane and answers, Ada
// sees his answer), then Ada, the group's owner, pins the root and it shows
// in the pins popover for both.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { type Page } from 'playwright-core';
import { groupWithMembers, registerAccount, type Account } from './harness/api.ts';
import { describePagesOnFailure, send } from './harness/app.ts';
import { SHOTS } from './harness/server.ts';
import { webAppStory } from './harness/story.ts';
import { openWindow } from './harness/windows.ts';

describe('threads and pins in the web client', () => {
  const story = webAppStory(import.meta.url);
  const pages: Record<string, Page> = {};
  const pageErrors: string[] = [];
  let ada: Page;
  let ben: Page;

  afterEach(describePagesOnFailure(() => pages));

  const open = async (account: Account, label: string, groupId: string, converseId: string) => {
    const page = await openWindow(story, { pages, errors: pageErrors }, label, account, `/g/${groupId}/${converseId}`);
    await page.getByTestId('converse-title').filter({ hasText: '#general' }).waitFor();
    return page;
  };
  const message = (page: Page, text: string) => page.getByTestId('message').filter({ hasText: text });

  it('Ada replies in a thread; Ben sees "1 reply", opens it and answers; Ada sees the answer', async () => {
    const base = story.server.base;
    const adaAccount = await registerAccount(base, 'ada');
    const benAccount = await registerAccount(base, 'ben');
    const { groupId, converseId } = await groupWithMembers(base, adaAccount, 'Crew', [benAccount]);
    ada = await open(adaAccount, 'ada', groupId, converseId);
    ben = await open(benAccount, 'ben', groupId, converseId);

    await send(ada, 'Who is bringing the tent?');
    const root = message(ada, 'Who is bringing the tent?');
    await root.hover();
    await root.getByRole('button', { name: 'Reply in thread' }).click();
    const adaPane = ada.getByTestId('thread-pane');
    await adaPane.getByTestId('thread-root').filter({ hasText: 'Who is bringing the tent?' }).waitFor();
    await adaPane.getByLabel('Reply in thread').fill('I can, if someone brings the stove');
    await adaPane.getByLabel('Reply in thread').press('Enter');
    await adaPane.getByTestId('thread-reply').filter({ hasText: 'I can, if someone brings the stove' }).waitFor();

    // Ben: the reply is not in the main timeline; the root says "1 reply".
    const summary = message(ben, 'Who is bringing the tent?').getByTestId('thread-summary');
    await summary.filter({ hasText: '1 reply' }).waitFor();
    assert.equal(await message(ben, 'I can, if someone brings the stove').count(), 0);
    await summary.click();
    const benPane = ben.getByTestId('thread-pane');
    await benPane.getByTestId('thread-reply').filter({ hasText: 'I can, if someone brings the stove' }).waitFor();
    await benPane.getByLabel('Reply in thread').fill('Stove is mine');
    await benPane.getByRole('button', { name: 'Send reply' }).click();

    await adaPane.getByTestId('thread-reply').filter({ hasText: 'Stove is mine' }).waitFor();
    await message(ada, 'Who is bringing the tent?')
      .getByTestId('thread-summary')
      .filter({ hasText: '2 replies' })
      .waitFor();
    await ada.screenshot({ path: join(SHOTS, 'thread-pane.png') });
  });

  it('Ada pins the root; both see it in the pins popover; Ben, a member, is not offered Pin', async () => {
    const root = message(ada, 'Who is bringing the tent?');
    await root.hover();
    await root.getByRole('button', { name: 'Pin', exact: true }).click();
    await root.getByTestId('pin-marker').waitFor();
    await message(ben, 'Who is bringing the tent?').getByTestId('pin-marker').waitFor();

    for (const page of [ada, ben]) {
      await page.getByRole('button', { name: 'Pinned messages' }).click();
      await page
        .getByRole('dialog', { name: 'Pinned messages' })
        .getByTestId('pinned-message')
        .filter({ hasText: 'Who is bringing the tent?' })
        .waitFor();
    }
    await ada.screenshot({ path: join(SHOTS, 'pins-popover.png') });
    const benRoot = message(ben, 'Who is bringing the tent?');
    await benRoot.hover();
    await benRoot.getByRole('button', { name: 'Reply in thread' }).waitFor();
    assert.equal(await benRoot.getByRole('button', { name: 'Pin', exact: true }).count(), 0);
    assert.deepEqual(pageErrors, []);
  });

  it('Ada unpins it; the marker goes for both', async () => {
    await ada.keyboard.press('Escape');
    const root = message(ada, 'Who is bringing the tent?');
    await root.hover();
    await root.getByRole('button', { name: 'Unpin', exact: true }).click();
    await root.getByTestId('pin-marker').waitFor({ state: 'detached' });
    await message(ben, 'Who is bringing the tent?').getByTestId('pin-marker').waitFor({ state: 'detached' });
    assert.deepEqual(pageErrors, []);
  });
});
