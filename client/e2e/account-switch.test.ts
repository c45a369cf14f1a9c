// Signing out and another account signing in, in one tab of headless
// Chromium against the single instance: Ann opens a thread, sees who read
// her message and a shared image, reads a group she shares with Bob and
// leaves a draft there, then logs out; Bob logs in in the same tab and sees
// none of what Ann's session held (her converses, followed threads, open
// thread, file links, her draft, her read position, the names her tab knew),
// and no answer meant for Ann's session lands in his.
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import type { Message } from '@im/protocol';
import { type Page, type Route } from 'playwright-core';
import { api, groupWithMembers, registerAccount, type Account } from './harness/api.ts';
import { describePagesOnFailure, PASSWORD, send } from './harness/app.ts';
import { PNG } from './harness/png.ts';
import { webAppStory } from './harness/story.ts';
import { openWindow } from './harness/windows.ts';

describe("another account in the same tab sees none of the previous one's state", () => {
  const story = webAppStory(import.meta.url);
  const pages: Record<string, Page> = {};
  const pageErrors: string[] = [];
  let tab: Page;
  let ann: Account;
  let bob: Account;
  let cat: Account;
  let crew: { groupId: string; converseId: string };
  let both: { groupId: string; converseId: string };
  let fileId: string;
  afterEach(describePagesOnFailure(() => pages));

  // A sent message the server confirmed (waiting for "nothing pending" could pass before the pending row is drawn).
  const confirmed = (text: string) =>
    tab.locator('[data-testid="message"]:not([data-pending])').filter({ hasText: text }).waitFor();
  const post = (account: Account, converseId: string, body: Record<string, unknown>) =>
    api<Message>(story.server.base, account.token, 'POST', `/api/converses/${converseId}/messages`, body);

  it('Ann opens a thread, sees "Seen by cat" and an image, with another followed thread unread', async () => {
    const base = story.server.base;
    [ann, bob, cat] = await Promise.all([
      registerAccount(base, 'ann'),
      registerAccount(base, 'bob'),
      registerAccount(base, 'cat'),
    ]);
    crew = await groupWithMembers(base, ann, 'Crew', [cat]);
    // Bob has a group of his own and is not in Ann's; they share one more, with Cat.
    await groupWithMembers(base, bob, 'Den', []);
    both = await groupWithMembers(base, ann, 'Both', [bob, cat]);
    await post(cat, both.converseId, { content: 'Lunch at one' });
    await post(cat, both.converseId, { content: 'Bring cups' });

    const upload = await fetch(`${base}/api/files?name=plan.png`, {
      method: 'POST',
      headers: { authorization: `Bearer ${cat.token}`, 'content-type': 'image/png' },
      body: PNG,
    });
    assert.equal(upload.status, 201);
    fileId = ((await upload.json()) as { id: string }).id;
    await post(cat, crew.converseId, { content: 'The site plan', attachments: [fileId] });
    const tent = await post(ann, crew.converseId, { content: 'Who brings the tent?' });
    await post(cat, crew.converseId, { content: 'I do', threadId: tent.id });
    const stove = await post(ann, crew.converseId, { content: 'Who brings the stove?' });
    await post(cat, crew.converseId, { content: 'Secret stove plans', threadId: stove.id });
    const last = await post(ann, crew.converseId, { content: 'See you at nine' });
    await api(base, cat.token, 'POST', `/api/converses/${crew.converseId}/ack`, { seq: last.seq });

    tab = await openWindow(story, { pages, errors: pageErrors }, 'tab', ann, `/g/${crew.groupId}/${crew.converseId}`);
    await tab.getByLabel('Seen by cat').waitFor();
    await tab.getByTestId('thumbnail').waitFor();
    assert.match((await tab.getByTestId('thumbnail').getAttribute('src')) ?? '', new RegExp(`^/api/files/${fileId}`));
    // Ann follows both threads (she started them); opening one reads it, the stove one stays unread.
    await tab.getByRole('button', { name: 'Threads, 2 unread' }).waitFor();
    const root = tab.getByTestId('message').filter({ hasText: 'Who brings the tent?' });
    await root.getByTestId('thread-summary').click();
    await tab.getByTestId('thread-pane').getByTestId('thread-reply').filter({ hasText: 'I do' }).waitFor();
    await tab.getByRole('button', { name: 'Threads, 1 unread' }).waitFor();

    // Ann reads the group she shares with Bob, starts a message there and leaves it unsent.
    await tab.getByRole('button', { name: 'Both', exact: true }).click();
    await tab.getByTestId('message').filter({ hasText: 'Bring cups' }).waitFor();
    await tab
      .getByRole('button', { name: 'Both', exact: true })
      .getByTestId('badge-group')
      .waitFor({ state: 'detached' });
    await tab.getByRole('textbox', { name: 'Message' }).fill("Ann's unsent draft");
    await tab.getByRole('button', { name: 'Crew', exact: true }).click();
    await tab.getByTestId('message').filter({ hasText: 'See you at nine' }).waitFor();
  });

  it('Ann logs out and Bob logs in in the same tab: nothing of Ann shows, late answers for her are dropped', async () => {
    // Every followed-threads list is held back until released: Ann's, asked for
    // before she logs out, answers only once Bob is signed in.
    const threadLists: Array<{ route: Route; token: string }> = [];
    const annToken = ann.token;
    await tab.route('**/api/threads?*', (route) => {
      threadLists.push({ route, token: route.request().headers().authorization ?? '' });
    });
    // Bob's token is the one his sign-in in the tab made: every list not Ann's is his.
    const release = async (hers: boolean) => {
      for (const held of threadLists.splice(0)) {
        if ((held.token === `Bearer ${annToken}`) === hers) await held.route.continue().catch(() => undefined);
        else threadLists.push(held);
      }
    };
    await tab.getByRole('button', { name: /^Threads/ }).click();
    await tab.getByRole('dialog', { name: 'Threads' }).waitFor();
    assert.ok(
      threadLists.some((h) => h.token === `Bearer ${ann.token}`),
      "Ann's list was asked for",
    );
    await tab.keyboard.press('Escape');

    await tab.getByRole('button', { name: 'Settings' }).click();
    await tab.getByRole('button', { name: 'Log out', exact: true }).click();
    await tab.getByRole('button', { name: 'Log in' }).waitFor();
    // Cat takes a new name while nobody is signed in here: Bob's tab must ask, not remember Ann's copy.
    await api(story.server.base, cat.token, 'PATCH', '/api/users/me', { nickname: 'Cat the cook' });

    const fileLinks: string[] = [];
    tab.on('request', (request) => {
      if (request.url().includes(`/api/files/${fileId}`)) fileLinks.push(request.url());
    });
    await tab.getByLabel('Username').fill(bob.username);
    await tab.getByLabel('Password').fill(PASSWORD);
    await tab.getByRole('button', { name: 'Log in' }).click();
    await tab.getByTestId('connection').and(tab.locator('[data-state="online"]')).waitFor({ state: 'attached' });
    await tab.getByRole('button', { name: 'Den' }).click();
    await tab.getByTestId('converse-title').filter({ hasText: '#general' }).waitFor();
    await send(tab, 'Bob was here');
    await confirmed('Bob was here');
    const threads = tab.getByRole('button', { name: /^Threads/ });
    assert.equal(await threads.getAttribute('aria-label'), 'Threads', "Bob's tab counts Ann's unread threads");

    // Ann's late answer arrives in Bob's session, then Bob's own is still on its way.
    await release(true);
    await send(tab, 'Bob is still here');
    await confirmed('Bob is still here');
    assert.equal(await threads.getAttribute('aria-label'), 'Threads');
    await threads.click();
    const list = tab.getByRole('dialog', { name: 'Threads' });
    await list.waitFor();
    assert.equal(await list.getByTestId('followed-thread').count(), 0);
    assert.equal(await list.getByText('Loading…').count(), 1);
    await release(false);
    await list.getByText('No threads yet').waitFor();

    const shown = await tab.locator('body').innerText();
    for (const text of [
      'Who brings the stove?',
      'Who brings the tent?',
      'Secret stove plans',
      'The site plan',
      'Crew',
    ]) {
      assert.ok(!shown.includes(text), `Bob's tab shows "${text}" of Ann's session`);
    }
    assert.equal(await tab.getByTestId('thread-pane').count(), 0);
    assert.equal(await tab.getByTestId('seen-by').count(), 0);
    assert.deepEqual(fileLinks, [], "Bob's tab asked for Ann's file");

    // The group they share: Bob has not read it (Ann had), her draft is not in his composer,
    // and Cat goes by the name the server says now.
    const shared = tab.getByRole('button', { name: 'Both', exact: true });
    await shared.getByTestId('badge-group').waitFor();
    await shared.click();
    const cups = tab.getByTestId('message').filter({ hasText: 'Lunch at one' });
    await cups.getByText('Cat the cook').waitFor();
    assert.equal(await tab.getByRole('textbox', { name: 'Message' }).inputValue(), '');
    assert.ok(!(await tab.locator('body').innerText()).includes("Ann's unsent draft"));
    assert.deepEqual(pageErrors, []);
  });
});
