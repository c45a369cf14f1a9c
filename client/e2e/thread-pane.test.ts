// The thread pane beside its panel, in Chromium: opening a thread leaves the
// chat a usable width (side by side on a wide window, laid over the chat on a
// narrower one), new messages in the panel that shows beside the thread are
// read, not counted unread, and a reply in the pane has the message actions.
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { type Page } from 'playwright-core';
import { groupWithMembers, registerAccount, typedApi, type Account } from './harness/api.ts';
import { describePagesOnFailure } from './harness/app.ts';
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

  it('opens beside the chat on a wide window, the chat keeping a usable width', async () => {
    const base = story.server.base;
    const adaAccount = await registerAccount(base, 'ada');
    ben = await registerAccount(base, 'ben');
    let groupId: string;
    ({ groupId, converseId } = await groupWithMembers(base, adaAccount, 'Crew', [ben]));
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
