// The thread pane beside its panel, in Chromium: opening a thread leaves the
// chat a usable width (side by side on a wide window, laid over the chat on a
// narrower one), new messages in the panel that shows beside the thread are
// read, not counted unread, and a reply in the pane has the message actions.
// The pane's composer works as the timeline's: Up-arrow edits my last reply,
// and the group's custom emoji are offered after `:` and in the picker.
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { apiPath } from '@im/api-client';
import { type Page } from 'playwright-core';
import { groupWithMembers, registerAccount, typedApi, type Account } from './harness/api.ts';
import { describePagesOnFailure } from './harness/app.ts';
import { PNG } from './harness/png.ts';
import { webAppStory } from './harness/story.ts';
import { openWindow } from './harness/windows.ts';

describe('the thread pane in Chromium', () => {
  const story = webAppStory(import.meta.url);
  const pages: Record<string, Page> = {};
  const pageErrors: string[] = [];
  let ada: Page;
  let ben: Account;
  let converseId: string;

  afterEach(describePagesOnFailure(() => pages));

  const chatWidth = async () => (await ada.locator('.converse').boundingBox())!.width;
  const focusedLabel = () => ada.evaluate(() => document.activeElement?.getAttribute('aria-label'));

  /** The group's custom emoji `name` (multipart upload, as the group settings send it). */
  const addCustomEmoji = async (owner: Account, groupId: string, name: string) => {
    const form = new FormData();
    form.append('name', name);
    form.append('file', new Blob([PNG], { type: 'image/png' }), 'emoji');
    const res = await fetch(`${story.server.base}${apiPath('group.uploadEmoji', { groupId })}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${owner.token}` },
      body: form,
    });
    assert.equal(res.status, 201, await res.text());
  };

  it('opens beside the chat on a wide window, the chat keeping a usable width', async () => {
    const base = story.server.base;
    const adaAccount = await registerAccount(base, 'ada');
    ben = await registerAccount(base, 'ben');
    let groupId: string;
    ({ groupId, converseId } = await groupWithMembers(base, adaAccount, 'Crew', [ben]));
    await addCustomEmoji(adaAccount, groupId, 'party_parrot');
    const root = await typedApi(base, ben.token).call('chat.send', { converseId, content: 'Plan for the trip' });
    await typedApi(base, ben.token).call('chat.send', {
      converseId,
      content: 'Tents are booked',
      threadId: (root as { id: string }).id,
    });
    ada = await openWindow(story, { pages, errors: pageErrors }, 'ada', adaAccount, `/g/${groupId}/${converseId}`);
    await ada.setViewportSize({ width: 1280, height: 800 });
    await ada.getByRole('complementary', { name: 'Members' }).or(ada.locator('.members')).first().waitFor();
    await ada.getByTestId('thread-summary').filter({ hasText: '1 reply' }).click();
    const pane = ada.getByTestId('thread-pane');
    await pane.getByTestId('thread-reply').filter({ hasText: 'Tents are booked' }).waitFor();
    const width = await chatWidth();
    assert.ok(width >= 480, `the chat is ${width} px wide beside the thread`);
    assert.ok((await pane.boundingBox())!.width >= 300);
  });

  it("does not count the panel's new messages as unread while it shows beside the thread", async () => {
    await typedApi(story.server.base, ben.token).call('chat.send', { converseId, content: 'Anyone for a swim?' });
    await ada.locator('.converse').getByTestId('message').filter({ hasText: 'Anyone for a swim?' }).waitFor();
    assert.equal(await ada.getByTestId('badge-panel').count(), 0, 'no unread badge on the panel');
    assert.equal(await ada.getByTestId('badge-group').count(), 0, 'no unread badge on the group');
  });

  it('gives a reply in the pane the message actions', async () => {
    const reply = ada.getByTestId('thread-pane').getByTestId('thread-reply').filter({ hasText: 'Tents are booked' });
    await reply.hover();
    for (const name of ['Add reaction', 'Report', 'Delete'])
      await reply.getByRole('button', { name, exact: true }).waitFor();
  });

  it('edits my last reply with Up-arrow in the empty thread composer: Escape cancels, Enter saves', async () => {
    const pane = ada.getByTestId('thread-pane');
    const composer = pane.getByRole('textbox', { name: 'Reply in thread' });
    await composer.fill('Sleeping bags too');
    await composer.press('Enter');
    await pane.getByTestId('thread-reply').filter({ hasText: 'Sleeping bags too' }).waitFor();
    await ada.waitForFunction(() => !document.querySelector<HTMLTextAreaElement>('.thread-pane textarea')?.value);

    await composer.press('ArrowUp');
    const edit = pane.getByRole('textbox', { name: 'Edit message' });
    await edit.waitFor();
    assert.equal(await edit.inputValue(), 'Sleeping bags too', 'my reply, not the root or Ben’s reply');
    assert.equal(await focusedLabel(), 'Edit message');
    await ada.keyboard.press('Escape');
    await edit.waitFor({ state: 'detached' });
    await ada.waitForFunction(() => document.activeElement?.getAttribute('aria-label') === 'Reply in thread');

    await ada.keyboard.press('ArrowUp');
    await edit.waitFor();
    await ada.keyboard.type(' and mats');
    await ada.keyboard.press('Enter');
    await pane.getByTestId('message-content').filter({ hasText: 'Sleeping bags too and mats' }).waitFor();
    await edit.waitFor({ state: 'detached' });
    await ada.waitForFunction(() => document.activeElement?.getAttribute('aria-label') === 'Reply in thread');
    assert.equal(await composer.inputValue(), '');
  });

  it("offers the group's custom emoji in the thread composer, after : and in the picker", async () => {
    const pane = ada.getByTestId('thread-pane');
    const composer = pane.getByRole('textbox', { name: 'Reply in thread' });
    await composer.focus();
    await ada.keyboard.type('Ready :party');
    const menu = pane.getByRole('listbox', { name: 'Matching emoji' });
    const parrot = menu.getByRole('option', { name: ':party_parrot:' });
    await parrot.waitFor();
    assert.equal(await parrot.getAttribute('aria-selected'), 'true', 'the group’s own emoji comes first');
    await ada.keyboard.press('Enter');
    await menu.waitFor({ state: 'detached' });
    assert.equal(await composer.inputValue(), 'Ready :party_parrot:');

    await pane.getByRole('button', { name: 'Insert emoji' }).click();
    const picker = pane.getByRole('dialog', { name: 'Insert emoji' });
    await picker.getByRole('tab', { name: 'Custom' }).click();
    await picker.getByRole('button', { name: ':party_parrot:' }).click();
    assert.equal(await composer.inputValue(), 'Ready :party_parrot::party_parrot:');
    await pane.getByRole('button', { name: 'Insert emoji' }).click();
    await picker.waitFor({ state: 'detached' });

    await composer.press('Enter');
    const reply = pane.getByTestId('thread-reply').filter({ hasText: 'Ready' });
    await reply.waitFor();
    await reply.getByRole('img', { name: ':party_parrot:' }).nth(1).waitFor();
  });

  it('keeps the root and replies one Tab stop with arrow keys, and focus on the next reply after a delete', async () => {
    const pane = ada.getByTestId('thread-pane');
    const focusedText = () => ada.evaluate(() => document.activeElement?.textContent ?? '');
    const mine = pane
      .getByTestId('thread-reply')
      .filter({ hasText: 'Sleeping bags too and mats' })
      .getByRole('article');
    await mine.focus();
    await mine.getByRole('button', { name: 'Delete' }).click();
    await ada.getByRole('alertdialog').getByRole('button', { name: 'Delete', exact: true }).click();
    await pane.locator('.tombstone').waitFor();
    await ada.waitForFunction(() => document.activeElement?.closest('li')?.textContent?.includes('Ready'));
    await ada.keyboard.press('Home');
    await ada.waitForFunction(() => document.activeElement?.closest('[data-testid="thread-root"]') !== null);
    assert.match(await focusedText(), /Plan for the trip/);
    await ada.keyboard.press('ArrowDown');
    assert.match(await focusedText(), /Tents are booked/);
    const stops = await pane
      .locator('.thread-pane-body')
      .evaluate(
        (body) =>
          Array.from(body.querySelectorAll('[data-message-key]')).filter((m) => (m as HTMLElement).tabIndex === 0)
            .length,
      );
    assert.equal(stops, 1, 'one message of the thread in the Tab order');
  });

  it('lies over the chat on a narrower window instead of squeezing it', async () => {
    await ada.setViewportSize({ width: 900, height: 800 });
    const main = (await ada.locator('main.main').boundingBox())!.width;
    await ada.waitForFunction(
      (w) => Math.abs(document.querySelector('.converse')!.getBoundingClientRect().width - w) < 2,
      main,
    );
    const pane = (await ada.getByTestId('thread-pane').boundingBox())!;
    assert.ok(pane.width >= 300, `the pane is ${pane.width} px wide`);
    assert.deepEqual(pageErrors, []);
  });
});
