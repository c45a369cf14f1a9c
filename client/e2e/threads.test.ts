// Threads and pins in the web client, in headless Chromium against the single
// instance: Ada and Ben hold a conversation in a thread (Ada replies in a
// thread, Ben sees "1 reply" under the root, opens the pane and answers, Ada
// sees his answer); replies in the pane have the timeline's actions (edit,
// react, delete) and its composer (a file attached, a member mentioned), each
// seen live by the other; then Ada, the group's owner, pins the root and it
// shows in the pins popover for both.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { type Page } from 'playwright-core';
import { groupWithMembers, registerAccount, type Account } from './harness/api.ts';
import { describePagesOnFailure, send } from './harness/app.ts';
import { PNG } from './harness/png.ts';
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
  // A message in the timeline (the thread pane beside it draws its messages the same way).
  const message = (page: Page, text: string) =>
    page.locator('.converse').getByTestId('message').filter({ hasText: text });
  const reply = (page: Page, text: string) =>
    page.getByTestId('thread-pane').getByTestId('thread-reply').filter({ hasText: text });

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
    await benPane.getByRole('button', { name: 'Send', exact: true }).click();

    await adaPane.getByTestId('thread-reply').filter({ hasText: 'Stove is mine' }).waitFor();
    await message(ada, 'Who is bringing the tent?')
      .getByTestId('thread-summary')
      .filter({ hasText: '2 replies' })
      .waitFor();
    await ada.screenshot({ path: join(SHOTS, 'thread-pane.png') });
  });

  it("in the pane Ben edits his reply, reacts to Ada's and deletes his; Ada sees each", async () => {
    const mine = reply(ben, 'Stove is mine');
    await mine.hover();
    await mine.getByRole('button', { name: 'Edit' }).click();
    // The edit box replaces the text the reply was found by.
    const editBox = ben.getByTestId('thread-pane').getByLabel('Edit message');
    await editBox.fill('Stove and pot are mine');
    await editBox.press('Enter');
    await reply(ada, 'Stove and pot are mine').getByText('(edited)').waitFor();

    const hers = reply(ben, 'I can, if someone brings the stove');
    await hers.hover();
    await hers.getByRole('button', { name: 'Add reaction' }).click();
    await hers.getByRole('button', { name: 'React 🎉' }).click();
    await reply(ada, 'I can, if someone brings the stove').getByRole('button', { name: '🎉 1' }).waitFor();

    const edited = reply(ben, 'Stove and pot are mine');
    await edited.hover();
    await edited.getByRole('button', { name: 'Delete' }).click();
    await ben.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await ada.getByTestId('thread-pane').getByText('This message was deleted.').waitFor();
    assert.equal(await reply(ada, 'Stove and pot are mine').count(), 0);
    assert.deepEqual(pageErrors, []);
  });

  it("Ben's thread composer attaches a file and completes @ada; Ada sees the image and her mention", async () => {
    const benPane = ben.getByTestId('thread-pane');
    await benPane.getByTestId('file-input').setInputFiles({ name: 'stove.png', mimeType: 'image/png', buffer: PNG });
    await benPane.getByTestId('upload').filter({ hasText: 'stove.png' }).waitFor();
    await ben.waitForFunction(() => !document.querySelector('[data-testid="thread-pane"] .upload.uploading'));
    const box = benPane.getByRole('textbox', { name: 'Reply in thread' });
    await box.pressSequentially('@ad');
    await benPane.getByRole('listbox', { name: 'Mention a member' }).getByRole('option', { name: /@ada/ }).waitFor();
    await box.press('Enter');
    assert.equal(await box.inputValue(), '@ada ');
    await box.pressSequentially('here is the stove');
    await box.press('Enter');

    const shown = reply(ada, 'here is the stove');
    await shown.getByTestId('thumbnail').waitFor();
    await shown.locator('.message.mentions-me').waitFor();
    // A reply in the thread, not in the timeline.
    assert.equal(await message(ada, 'here is the stove').count(), 0);
    await ada.screenshot({ path: join(SHOTS, 'thread-pane-actions.png') });
    assert.deepEqual(pageErrors, []);
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
