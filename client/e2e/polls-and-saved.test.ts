// Polls and saved messages in the web client, in headless Chromium against
// the single instance: Ada asks the club a question with "Poll" in the
// composer; Ben votes in the card and Ada's open app shows the count move at
// once, without a reload; Ada closes it. Ben saves one of Ada's messages and
// goes to his direct messages while the conversation moves on; he finds it
// under "Saved" in the sidebar and jumps back to it, highlighted.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { type Page } from 'playwright-core';
import { api, groupWithMembers, registerAccount, type Account } from './harness/api.ts';
import { describePagesOnFailure, send } from './harness/app.ts';
import { SHOTS } from './harness/server.ts';
import { webAppStory } from './harness/story.ts';
import { openWindow } from './harness/windows.ts';

const KEYS = 'The hall keys are in the red box by the door';

describe('polls and saved messages in the web client', () => {
  const story = webAppStory(import.meta.url);
  const pages: Record<string, Page> = {};
  const pageErrors: string[] = [];
  let adaAccount: Account;
  let ada: Page;
  let ben: Page;
  let converseId: string;

  afterEach(describePagesOnFailure(() => pages));

  const open = async (account: Account, label: string, groupId: string) => {
    const page = await openWindow(story, { pages, errors: pageErrors }, label, account, `/g/${groupId}/${converseId}`);
    await page.getByTestId('converse-title').filter({ hasText: '#general' }).waitFor();
    return page;
  };
  const message = (page: Page, text: string) => page.getByTestId('message').filter({ hasText: text });
  const pollOf = (page: Page, question: string) => page.getByRole('region', { name: `Poll: ${question}` });

  it('Ada sends a poll from the composer; Ben votes; Ada sees the count move live', async () => {
    const base = story.server.base;
    adaAccount = await registerAccount(base, 'ada');
    const benAccount = await registerAccount(base, 'ben');
    const club = await groupWithMembers(base, adaAccount, 'Club', [benAccount]);
    converseId = club.converseId;
    ada = await open(adaAccount, 'ada', club.groupId);
    ben = await open(benAccount, 'ben', club.groupId);

    await ada.getByRole('button', { name: 'Poll', exact: true }).click();
    const form = ada.getByRole('dialog', { name: 'New poll' });
    await form.getByLabel('Question').fill('Which day for the clean-up?');
    await form.getByRole('textbox', { name: 'Option 1', exact: true }).fill('Friday');
    await form.getByRole('textbox', { name: 'Option 2', exact: true }).fill('Saturday');
    await form.getByRole('button', { name: 'Add an option' }).click();
    await form.getByRole('textbox', { name: 'Option 3', exact: true }).fill('Sunday');
    await form.getByRole('button', { name: 'Send poll' }).click();
    await form.waitFor({ state: 'detached' });

    const adaPoll = pollOf(ada, 'Which day for the clean-up?');
    const benPoll = pollOf(ben, 'Which day for the clean-up?');
    await adaPoll.waitFor();
    await benPoll.waitFor();
    // Checked once the server took the vote (the card shows the server's answer).
    await benPoll.getByRole('radio', { name: /Saturday/ }).click();
    await benPoll.getByTestId('poll-total').filter({ hasText: '1 vote · you voted' }).waitFor();

    // Ada's app: the count moved without her doing anything; she has not voted herself.
    const saturday = adaPoll.getByTestId('poll-option').filter({ hasText: 'Saturday' });
    await saturday.getByTestId('poll-count').filter({ hasText: '1 · 100%' }).waitFor();
    assert.equal(await adaPoll.getByTestId('poll-total').innerText(), '1 vote');
    // Ben changes his mind: Ada sees it move.
    await benPoll.getByRole('radio', { name: /Sunday/ }).click();
    await adaPoll
      .getByTestId('poll-option')
      .filter({ hasText: 'Sunday' })
      .getByTestId('poll-count')
      .filter({ hasText: '1 · 100%' })
      .waitFor();
    await saturday.getByTestId('poll-count').filter({ hasText: '0 · 0%' }).waitFor();
    await ada.screenshot({ path: join(SHOTS, 'poll-card.png') });

    // Ada closes it; Ben can no longer vote.
    await adaPoll.getByRole('button', { name: 'Close poll' }).click();
    await benPoll.getByTestId('poll-closed').waitFor();
    assert.equal(await benPoll.getByRole('radio', { name: /Friday/ }).isDisabled(), true);
    assert.deepEqual(pageErrors, []);
  });

  it('Ben saves a message, the talk moves on, and Saved in the sidebar takes him back to it', async () => {
    await send(ada, KEYS);
    const kept = message(ben, KEYS);
    await kept.waitFor();
    await kept.hover();
    await kept.getByRole('button', { name: 'Save', exact: true }).click();
    await kept.hover();
    await kept.getByRole('button', { name: 'Remove from saved' }).waitFor();

    // Ben goes to his direct messages; meanwhile sixty more messages push it far up.
    await ben.getByRole('button', { name: 'Direct messages' }).click();
    await ben.getByRole('navigation', { name: 'Direct messages' }).waitFor();
    for (let i = 1; i <= 60; i += 1)
      await api(story.server.base, adaAccount.token, 'POST', `/api/converses/${converseId}/messages`, {
        content: `chatter ${i}`,
      });

    await ben.getByRole('button', { name: 'Saved' }).click();
    const list = ben.getByRole('dialog', { name: 'Saved messages' });
    const entry = list.getByTestId('saved-message').filter({ hasText: KEYS });
    await entry.waitFor();
    assert.match(await entry.innerText(), /#general · Club/);
    await ben.screenshot({ path: join(SHOTS, 'saved-messages.png') });
    await entry.click();
    await ben.getByTestId('converse-title').filter({ hasText: '#general' }).waitFor();
    await ben.locator('.row.highlight').getByTestId('message-content').filter({ hasText: KEYS }).waitFor();
    assert.deepEqual(pageErrors, []);
  });
});
