// One moderation story through the web client, in headless Chromium against
// the single instance: Carol reports Bob's message, Alice (the group's owner)
// deletes it from the report queue and bans Bob, who loses the group and
// cannot come back through an invite made before the ban; the ban shows in
// the group's audit log. Alice then makes and revokes an invite and unbans
// Bob, mutes Carol and makes a panel admin-only; a server admin deletes a
// reported DM, deactivates and reactivates an account and changes the
// registration mode from the console. Setup steps go through the API; the
// story itself through the UI.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { type Locator, type Page } from 'playwright-core';
import { api, groupWithMembers, registerAccount, type Account } from './harness/api.ts';
import { describePagesOnFailure, PASSWORD } from './harness/app.ts';
import { SHOTS } from './harness/server.ts';
import { webAppStory } from './harness/story.ts';
import { openWindow, watchPage } from './harness/windows.ts';
import { STEP_DEADLINE_MS } from './harness/deadline.ts';

const SPAM = 'Cheap watches at spam.example, click now';

/** An element's text on one line (innerText breaks lines at every flex item). */
const textOf = async (locator: Locator): Promise<string> => ((await locator.textContent()) ?? '').replace(/\s+/g, ' ');

describe('moderating a group in the web client', () => {
  const story = webAppStory(import.meta.url, { ADMIN_USERNAMES: 'root' });
  const pages: Record<string, Page> = {};
  const pageErrors: string[] = [];
  let alice: Account;
  let bob: Account;
  let carol: Account;
  let root: Account;
  let groupId: string;
  let converseId: string;
  let inviteCode: string;

  const windows = { pages, errors: pageErrors };
  const open = (label: string, account: Account, path?: string) => openWindow(story, windows, label, account, path);
  const watch = (label: string, page: Page) => watchPage(windows, label, page);

  afterEach(describePagesOnFailure(() => pages));

  it('sets up (API): Alice owns a group that Bob and Carol joined by invite, and Bob posted spam', async () => {
    const base = story.server.base;
    [alice, bob, carol, root] = await Promise.all([
      registerAccount(base, 'alice'),
      registerAccount(base, 'bob'),
      registerAccount(base, 'carol'),
      registerAccount(base, 'root'),
    ]);
    // The invite is made before the ban: it must not let Bob back in afterwards.
    ({ groupId, converseId, inviteCode } = await groupWithMembers(base, alice, 'Team', [bob, carol]));
    await api(base, bob.token, 'POST', `/api/converses/${converseId}/messages`, { content: SPAM });
    await api(base, carol.token, 'POST', `/api/converses/${converseId}/messages`, { content: 'Hi all' });

    const path = `/g/${groupId}/${converseId}`;
    for (const [label, account] of [
      ['alice', alice],
      ['bob', bob],
      ['carol', carol],
    ] as const) {
      const page = await open(label, account, path);
      await page.getByTestId('message-content').filter({ hasText: SPAM }).waitFor();
    }
  });

  it('lets Carol report the message (not her own, and only once)', async () => {
    const carolPage = pages.carol!;
    const own = carolPage.getByTestId('message').filter({ hasText: 'Hi all' });
    await own.hover();
    assert.equal(await own.getByRole('button', { name: 'Report' }).count(), 0, 'no Report on my own message');

    const reportIt = async () => {
      const message = carolPage.getByTestId('message').filter({ hasText: SPAM });
      await message.hover();
      await message.getByRole('button', { name: 'Report' }).click();
      const dialog = carolPage.getByRole('dialog', { name: 'Report message' });
      await dialog.getByLabel('Reason').fill('spam');
      await dialog.getByRole('button', { name: 'Report', exact: true }).click();
      return dialog;
    };
    const first = await reportIt();
    await first.waitFor({ state: 'detached' });
    await carolPage.getByText('Thanks: the message was reported to the moderators.').waitFor();

    const again = await reportIt();
    await again.getByRole('alert').filter({ hasText: 'You already reported this message' }).waitFor();
    await carolPage.keyboard.press('Escape');
    await again.waitFor({ state: 'detached' });
  });

  it("lets Alice delete the message from the group's report queue", async () => {
    const page = pages.alice!;
    await page.getByRole('button', { name: 'Team: group menu' }).click();
    await page.getByRole('menuitem', { name: 'Group settings' }).click();
    const settings = page.getByRole('dialog', { name: 'Team settings' });
    await settings.getByRole('tab', { name: 'Reports' }).click();
    const report = settings.getByTestId('report').filter({ hasText: SPAM });
    await report.getByTestId('report-reason').filter({ hasText: 'spam' }).waitFor();
    assert.match(await textOf(report), /carol reported a message by bob/);
    await page.screenshot({ path: join(SHOTS, 'report-queue.png') });
    await report.getByRole('button', { name: 'Delete message' }).click();
    await settings.getByText('No open reports.').waitFor();
    // Everyone sees the tombstone in place of the message.
    for (const label of ['carol', 'bob']) {
      await pages[label]!.getByText('This message was deleted.').waitFor();
      assert.equal(await pages[label]!.getByTestId('message-content').filter({ hasText: SPAM }).count(), 0);
    }
  });

  it('lets Alice ban Bob with a reason: he loses the group at once', async () => {
    const page = pages.alice!;
    const settings = page.getByRole('dialog', { name: 'Team settings' });
    await settings.getByRole('tab', { name: 'Members' }).click();
    const row = settings.getByTestId('member-row').filter({ hasText: '@bob' });
    await row.getByRole('button', { name: 'Ban', exact: true }).click();
    await row.getByLabel('Reason').fill('spam');
    await row.getByRole('button', { name: 'Ban bob' }).click();
    await row.waitFor({ state: 'detached' });

    await settings.getByRole('tab', { name: 'Bans' }).click();
    const ban = settings.getByTestId('ban-row').filter({ hasText: '@bob' });
    await ban.waitFor();
    assert.match(await textOf(ban), /Banned by alice · .* · spam/);

    const bobPage = pages.bob!;
    await bobPage.getByTestId('rail-group').waitFor({ state: 'detached' });
    await bobPage.getByRole('heading', { name: 'Hello, bob' }).waitFor();
  });

  it('refuses Bob the invite link made before the ban, saying he is banned', async () => {
    const bobPage = pages.bob!;
    await bobPage.goto(`${story.server.base}/invite/${inviteCode}`);
    const joinDialog = bobPage.getByRole('dialog', { name: 'Join a group' });
    await joinDialog.getByRole('button', { name: 'Join', exact: true }).click();
    await joinDialog.getByRole('alert').filter({ hasText: 'You are banned from this group.' }).waitFor();
    await bobPage.screenshot({ path: join(SHOTS, 'banned.png') });
    assert.equal(await bobPage.getByTestId('rail-group').count(), 0);
  });

  it("shows the ban in the group's audit log", async () => {
    const page = pages.alice!;
    const settings = page.getByRole('dialog', { name: 'Team settings' });
    await settings.getByRole('tab', { name: 'Audit log' }).click();
    const entries = settings.getByTestId('audit-entry');
    await entries.filter({ hasText: 'alice banned bob: spam' }).waitFor();
    await entries.filter({ hasText: 'alice deleted a reported message by bob' }).waitFor();
    // Newest first: the ban came after the deletion.
    const texts = await entries.allInnerTexts();
    const banAt = texts.findIndex((t) => t.includes('alice banned bob: spam'));
    const deleteAt = texts.findIndex((t) => t.includes('deleted a reported message'));
    assert.ok(banAt < deleteAt, `newest first: ${texts.join(' | ')}`);
    await page.screenshot({ path: join(SHOTS, 'audit-log.png') });
    await page.keyboard.press('Escape');
    await settings.waitFor({ state: 'detached' });
  });

  it('lets Alice make an invite with an expiry and a use limit, revoke it, and unban Bob, who comes back', async () => {
    const page = pages.alice!;
    await page.getByRole('button', { name: 'Team: group menu' }).click();
    await page.getByRole('menuitem', { name: 'Group settings' }).click();
    const settings = page.getByRole('dialog', { name: 'Team settings' });
    await settings.getByRole('tab', { name: 'Invites' }).click();
    // The invite Bob and Carol joined with, and what it was used for.
    const first = settings.getByTestId('invite-row').filter({ hasText: inviteCode });
    assert.match(await textOf(first), /by alice/);
    assert.match(await textOf(first), /2 uses, no limit/);

    await settings.getByLabel('Expires after').selectOption({ label: '1 hour' });
    await settings.getByLabel('Max uses').fill('1');
    await settings.getByRole('button', { name: 'Create invite' }).click();
    const code = (await settings.getByTestId('invite-code').textContent())!;
    const made = settings.getByTestId('invite-row').filter({ hasText: code });
    assert.match(await textOf(made), /0 of 1 use · expires/);
    await made.getByRole('button', { name: 'Revoke' }).click();
    await made.waitFor({ state: 'detached' });
    const revoked = await fetch(`${story.server.base}/api/invites/${code}/accept`, {
      method: 'POST',
      headers: { authorization: `Bearer ${bob.token}` },
    });
    assert.equal(revoked.status, 404, 'a revoked invite is gone');

    await settings.getByRole('tab', { name: 'Bans' }).click();
    await settings.getByTestId('ban-row').filter({ hasText: '@bob' }).getByRole('button', { name: 'Unban' }).click();
    await settings.getByText('Nobody is banned.').waitFor();
    // The link that refused him before lets him in now.
    const bobPage = pages.bob!;
    await bobPage.goto(`${story.server.base}/invite/${inviteCode}`);
    await bobPage
      .getByRole('dialog', { name: 'Join a group' })
      .getByRole('button', { name: 'Join', exact: true })
      .click();
    await bobPage.getByTestId('rail-group').waitFor();

    await settings.getByRole('tab', { name: 'Audit log' }).click();
    const entries = settings.getByTestId('audit-entry');
    await entries.filter({ hasText: 'alice unbanned bob' }).waitFor();
    await entries.filter({ hasText: `alice revoked the invite ${code}` }).waitFor();
    await page.keyboard.press('Escape');
    await settings.waitFor({ state: 'detached' });
  });

  it('mutes Carol for 10 minutes and makes #general admin-only: her composer says so, live', async () => {
    const page = pages.alice!;
    const carolPage = pages.carol!;
    const composer = carolPage.getByRole('textbox', { name: 'Message' });
    await page.getByRole('button', { name: 'Team: group menu' }).click();
    await page.getByRole('menuitem', { name: 'Group settings' }).click();
    const settings = page.getByRole('dialog', { name: 'Team settings' });
    const row = settings.getByTestId('member-row').filter({ hasText: '@carol' });
    await row.getByLabel('Mute carol for').selectOption({ label: '10 minutes' });
    await row.getByRole('button', { name: 'Mute', exact: true }).click();
    await row.getByText(/^Muted until /).waitFor();
    await carolPage
      .getByTestId('composer-notice')
      .filter({ hasText: /^You are muted in this group until / })
      .waitFor();
    assert.equal(await composer.isDisabled(), true);
    await row.getByRole('button', { name: 'Unmute' }).click();
    await carolPage.getByTestId('composer-notice').waitFor({ state: 'detached' });
    assert.equal(await composer.isDisabled(), false);
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: 'Edit panel general' }).click();
    const panel = page.getByRole('dialog', { name: 'Panel settings' });
    await panel.getByLabel('Only admins can post').check();
    await panel.getByRole('button', { name: 'Save' }).click();
    await panel.waitFor({ state: 'detached' });
    await carolPage.getByTestId('composer-locked').filter({ hasText: 'Only admins can post in this panel' }).waitFor();
    assert.equal(await composer.count(), 0);
    // The owner still posts there.
    assert.equal(await page.getByRole('textbox', { name: 'Message' }).isDisabled(), false);
  });

  it('lets a server admin delete a reported direct message from the console', async () => {
    // Setup (API): Bob writes to Alice directly, and she reports it (the report dialog was walked above).
    const dm = await api<{ id: string }>(story.server.base, bob.token, 'POST', '/api/dms', { userId: alice.id });
    const rude = await api<{ id: string }>(story.server.base, bob.token, 'POST', `/api/converses/${dm.id}/messages`, {
      content: 'You are all idiots',
    });
    await api(story.server.base, alice.token, 'POST', `/api/messages/${rude.id}/report`, { reason: 'insults' });

    assert.equal(await pages.alice!.getByRole('button', { name: 'Admin console' }).count(), 0, 'not for others');
    const page = await open('root', root);
    await page.getByRole('button', { name: 'Admin console' }).click();
    const console_ = page.getByRole('dialog', { name: 'Admin console' });
    await console_.getByRole('tab', { name: 'Reports' }).click();
    const report = console_.getByTestId('report').filter({ hasText: 'You are all idiots' });
    assert.match(await textOf(report), /alice reported a message by bob · .* · in a direct message/);
    await report.getByRole('button', { name: 'Delete message' }).click();
    await console_.getByText('No open reports.').waitFor();
    const seen = await api<{ deleted?: boolean }>(story.server.base, alice.token, 'GET', `/api/messages/${rude.id}`);
    assert.equal(seen.deleted, true);
    await console_.getByRole('tab', { name: 'Users' }).click();
  });

  it('lets a server admin deactivate an account and close registration from the console', async () => {
    const page = pages.root!;
    const console_ = page.getByRole('dialog', { name: 'Admin console' });
    await console_.getByLabel('Search users').fill('car');
    const row = console_.getByTestId('admin-user').filter({ hasText: '@carol' });
    await row.getByTestId('user-state').filter({ hasText: 'Active' }).waitFor();
    assert.equal(await console_.getByTestId('admin-user').count(), 1, 'the search narrows the list');
    await row.getByRole('button', { name: 'Deactivate' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Deactivate' }).click();
    await row.getByTestId('user-state').filter({ hasText: 'Deactivated' }).waitFor();
    // Carol's session ends at once, and she cannot sign in again.
    const carolPage = pages.carol!;
    await carolPage.getByRole('button', { name: 'Log in' }).waitFor();
    await carolPage.getByLabel('Username').fill('carol');
    await carolPage.getByLabel('Password').fill(PASSWORD);
    await carolPage.getByRole('button', { name: 'Log in' }).click();
    await carolPage.getByRole('alert').filter({ hasText: 'This account has been deactivated' }).waitFor();

    await console_.getByRole('tab', { name: 'Registration' }).click();
    await console_.getByLabel('Invite only').check();
    await console_.getByRole('button', { name: 'Save' }).click();
    await console_.getByText('Saved.').waitFor();
    // Invite only: a newcomer following Alice's invite link registers with its code, and is in the group.
    const dave = await (await story.browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    dave.setDefaultTimeout(STEP_DEADLINE_MS);
    watch('dave', dave);
    await dave.goto(`${story.server.base}/invite/${inviteCode}`);
    // An invite link opens on signing up.
    await dave.getByRole('button', { name: 'Create account' }).waitFor();
    assert.equal(await dave.getByLabel('Invite link or code').inputValue(), inviteCode);
    await dave.getByLabel('Username').fill('dave');
    await dave.getByLabel('Password').fill(PASSWORD);
    await dave.getByRole('button', { name: 'Create account' }).click();
    await dave
      .getByTestId('rail-group')
      .and(dave.getByRole('button', { name: 'Team', exact: true }))
      .waitFor();
    assert.equal(
      await dave.getByRole('dialog', { name: 'Join a group' }).count(),
      0,
      'the invite is not offered again',
    );

    await console_.getByLabel('Closed').check();
    await console_.getByRole('button', { name: 'Save' }).click();
    await console_.getByText('Saved.').waitFor();
    // The sign-in screen says so (login still works, as Carol's attempt above showed).
    await carolPage.reload();
    await carolPage.getByText('Registration is closed on this server.').waitFor();
    assert.equal(await carolPage.getByRole('button', { name: 'Create an account' }).count(), 0);

    await console_.getByRole('tab', { name: 'Audit log' }).click();
    await console_.getByTestId('audit-entry').filter({ hasText: "root deactivated carol's account" }).waitFor();
    await console_.getByTestId('audit-entry').filter({ hasText: 'root set registration to closed' }).waitFor();
    await console_.getByTestId('audit-entry').filter({ hasText: 'root deleted a reported message by bob' }).waitFor();
    await page.screenshot({ path: join(SHOTS, 'admin-console.png') });

    // Activation lets Carol back in.
    await console_.getByRole('tab', { name: 'Users' }).click();
    await console_.getByLabel('Search users').fill('car');
    const again = console_.getByTestId('admin-user').filter({ hasText: '@carol' });
    await again.getByRole('button', { name: 'Activate' }).click();
    await again.getByTestId('user-state').filter({ hasText: 'Active' }).waitFor();
    const login = await fetch(`${story.server.base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'carol', password: PASSWORD }),
    });
    assert.equal(login.status, 200);
    assert.deepEqual(pageErrors, []);
  });
});
