// The web client end to end: two people in two browser contexts of headless
// Chromium, against the single instance serving the built client. Bob reaches
// the server through a proxy that can cut his network.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, afterEach, before, describe, it } from 'node:test';
import type { ServerProcess } from '@im/dev-servers';
import { type Browser, type Page } from 'playwright-core';
import { collectPageErrors, describePagesOnFailure, messageTexts, PASSWORD, register, send } from './harness/app.ts';
import { SHOTS } from './harness/server.ts';
import { type CuttableProxy } from './harness/cuttable-proxy.ts';
import { openTwoWindows, type TwoWindows } from './harness/two-windows.ts';
import { PNG } from './harness/png.ts';

describe('two people chatting in the web client', () => {
  let windows: TwoWindows;
  let server: ServerProcess;
  let proxy: CuttableProxy;
  let browser: Browser;
  let alice: Page;
  let bob: Page;
  const pageErrors: string[] = [];

  before(async () => {
    windows = await openTwoWindows(import.meta.url);
    ({ server, proxy, browser, alice, bob } = windows);
    collectPageErrors(alice, 'alice', pageErrors);
    collectPageErrors(bob, 'bob', pageErrors);
  });

  afterEach(describePagesOnFailure(() => ({ alice, bob })));

  after(async () => {
    await windows?.close();
  });

  it('registers both, and Alice creates a group and an invite that Bob joins', async () => {
    await alice.goto(server.base);
    await alice.getByRole('button', { name: 'Log in' }).waitFor();
    await alice.screenshot({ path: join(SHOTS, 'login.png') });
    await register(alice, server.base, 'alice');
    await register(bob, proxy.base, 'bob');
    await alice.screenshot({ path: join(SHOTS, 'home.png') });

    await alice.getByRole('button', { name: 'Create a group' }).first().click();
    await alice.getByLabel('Group name').fill('Team');
    await alice.getByRole('button', { name: 'Create', exact: true }).click();
    await alice.getByTestId('converse-title').filter({ hasText: '#general' }).waitFor();

    await alice.getByRole('button', { name: 'Team: group menu' }).click();
    await alice.getByRole('menuitem', { name: 'Invite people' }).click();
    const link = await alice.getByTestId('invite-link').inputValue();
    assert.match(link, /\/invite\/[^/]+$/);
    await alice.keyboard.press('Escape');

    // Bob follows the link: the app asks him to join with the code filled in.
    await bob.goto(link.replace(server.base, proxy.base));
    await bob.getByRole('button', { name: 'Join', exact: true }).click();
    await bob.getByTestId('converse-title').filter({ hasText: '#general' }).waitFor();
    await alice.getByTestId('member').filter({ hasText: 'bob' }).waitFor();
  });

  it('delivers messages both ways in real time', async () => {
    await send(alice, 'Hello Bob, welcome to the team');
    await bob.getByTestId('message-content').filter({ hasText: 'Hello Bob, welcome to the team' }).waitFor();
    await send(bob, 'Thanks Alice!');
    await alice.getByTestId('message-content').filter({ hasText: 'Thanks Alice!' }).waitFor();
    // Confirmed, not left pending, on the sender's side.
    await bob.locator('[data-pending]').waitFor({ state: 'detached' });
    assert.deepEqual(await messageTexts(alice), ['Hello Bob, welcome to the team', 'Thanks Alice!']);
    assert.deepEqual(await messageTexts(bob), ['Hello Bob, welcome to the team', 'Thanks Alice!']);
  });

  it("shows Alice's uploaded image to Bob as a thumbnail", async () => {
    await alice.getByTestId('file-input').setInputFiles({ name: 'diagram.png', mimeType: 'image/png', buffer: PNG });
    await alice.getByTestId('upload').filter({ hasText: 'diagram.png' }).waitFor();
    const sendButton = alice.getByRole('button', { name: 'Send', exact: true });
    await alice.waitForFunction(() => !document.querySelector('.upload.uploading'));
    await alice.getByRole('textbox', { name: 'Message' }).fill('The diagram');
    await sendButton.click();
    const thumb = bob.getByTestId('thumbnail');
    await thumb.waitFor();
    await bob.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>('[data-testid="thumbnail"]');
      return img !== null && img.complete && img.naturalWidth > 0;
    });
    // A signed link: no access token ever appears in a URL.
    const src = (await thumb.getAttribute('src')) ?? '';
    assert.match(src, /^\/api\/files\/[0-9a-f]{24}(\/thumbnail)?\?exp=\d+&sig=[\w-]+$/);
    assert.ok(!src.includes('access_token'));
    await thumb.click();
    await bob.getByTestId('image-viewer').waitFor();
    await bob.screenshot({ path: join(SHOTS, 'image-viewer.png') });
    await bob.keyboard.press('Escape');
  });

  it("raises Bob's mention badge when Alice mentions him elsewhere, and clears it when he reads", async () => {
    // Bob looks at his direct messages; the group is out of view.
    await bob.getByRole('button', { name: 'Direct messages' }).click();
    await bob.getByRole('heading', { name: 'Direct messages' }).waitFor();
    const box = alice.getByRole('textbox', { name: 'Message' });
    await box.fill('@bo');
    await alice.getByRole('option', { name: /@bob/ }).waitFor();
    await box.press('Enter'); // picks the suggestion
    assert.equal(await box.inputValue(), '@bob ');
    await box.pressSequentially('can you review this?');
    await box.press('Enter');
    const badge = bob.getByTestId('badge-group');
    await badge.filter({ hasText: '1' }).waitFor();
    assert.equal(await badge.getAttribute('aria-label'), '1 mentions');
    await bob.screenshot({ path: join(SHOTS, 'mention-badge.png') });
    await bob.getByTestId('rail-group').first().click();
    await bob.getByTestId('message-content').filter({ hasText: 'can you review this?' }).waitFor();
    await badge.waitFor({ state: 'detached' });
  });

  it('shows Bob the messages sent while his network was cut, once each, after he reconnects', async () => {
    proxy.cut();
    await bob.getByTestId('connection').and(bob.locator('[data-state="reconnecting"]')).waitFor();
    // Alice sees Bob go offline, and come back below.
    const bobInAlicesList = alice.getByTestId('member').filter({ hasText: 'bob' });
    await bobInAlicesList.and(alice.locator('[data-online="false"]')).waitFor();
    for (const n of [1, 2, 3]) await send(alice, `While you were away ${n}`);
    await alice.getByTestId('message-content').filter({ hasText: 'While you were away 3' }).waitFor();
    await alice.locator('[data-pending]').waitFor({ state: 'detached' });
    await bob.screenshot({ path: join(SHOTS, 'reconnecting.png') });
    proxy.restore();
    await bob
      .getByTestId('connection')
      .and(bob.locator('[data-state="online"]'))
      .waitFor({ state: 'attached', timeout: 30_000 });
    await bob.getByTestId('message-content').filter({ hasText: 'While you were away 3' }).waitFor();
    await bobInAlicesList.and(alice.locator('[data-online="true"]')).waitFor();
    const texts = await messageTexts(bob);
    for (const n of [1, 2, 3]) {
      assert.equal(texts.filter((t) => t === `While you were away ${n}`).length, 1, `message ${n} once: ${texts}`);
    }
    assert.deepEqual(texts.slice(-3), ['While you were away 1', 'While you were away 2', 'While you were away 3']);
  });

  it('shows markup in a message as text and never runs it', async () => {
    const hostile = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>';
    await send(alice, hostile);
    const shown = bob.getByTestId('message-content').filter({ hasText: '<img src=x' });
    await shown.waitFor();
    assert.equal(await shown.innerText(), hostile);
    assert.equal(await shown.locator('img, script').count(), 0);
    assert.equal(await bob.evaluate(() => (window as { __pwned?: number }).__pwned), undefined);
    assert.equal(await alice.evaluate(() => (window as { __pwned?: number }).__pwned), undefined);
  });

  it('opens links in a new tab without a handle on the app', async () => {
    await send(bob, 'Docs at https://example.org/guide.');
    const link = alice.getByRole('link', { name: 'https://example.org/guide' });
    await link.waitFor();
    assert.equal(await link.getAttribute('rel'), 'nofollow noopener noreferrer ugc');
    assert.equal(await link.getAttribute('target'), '_blank');
  });

  it('carries reactions, replies and edits to the other side live', async () => {
    const target = bob.getByTestId('message').filter({ hasText: 'Hello Bob, welcome to the team' });
    await target.hover();
    await target.getByRole('button', { name: 'Add reaction' }).click();
    await target.getByRole('button', { name: 'React 🎉' }).click();
    const chip = alice
      .getByTestId('message')
      .filter({ hasText: 'Hello Bob, welcome to the team' })
      .getByRole('button', { name: '🎉 1' });
    await chip.waitFor();
    // Hovering a reaction asks who reacted (GET /api/messages/:id/reactions/:emoji).
    await chip.hover();
    await alice.waitForFunction(() =>
      document.querySelector('button.reaction[title]')?.getAttribute('title')?.includes('reacted with 🎉'),
    );
    assert.match((await chip.getAttribute('title')) ?? '', /^bob reacted with 🎉$/i);

    await target.hover();
    await target.getByRole('button', { name: 'Reply', exact: true }).click();
    await bob.getByTestId('replying').waitFor();
    await send(bob, 'Glad to be here');
    const reply = alice.getByTestId('message').filter({ hasText: 'Glad to be here' });
    await reply.getByTestId('reply-quote').filter({ hasText: 'Hello Bob, welcome to the team' }).waitFor();

    const mine = alice.getByRole('article', { name: /^alice, .+: Hello Bob, welcome to the team$/ });
    await mine.hover();
    await mine.getByRole('button', { name: 'Edit' }).click();
    const editor = alice.getByRole('textbox', { name: 'Edit message' });
    await editor.fill('Hello Bob, welcome aboard');
    await editor.press('Enter');
    await bob.getByTestId('message-content').filter({ hasText: 'Hello Bob, welcome aboard (edited)' }).waitFor();
    await alice.screenshot({ path: join(SHOTS, 'chat.png') });
  });

  it('starts a direct message from the member list', async () => {
    await bob.getByTestId('member').filter({ hasText: 'alice' }).getByRole('button').click();
    await bob.getByRole('menuitem', { name: 'Send a message' }).click();
    await bob.getByTestId('converse-title').filter({ hasText: 'alice' }).waitFor();
    await send(bob, 'A private word');
    // Alice is in the group: the DM counts on her home button until she opens it.
    await alice.getByTestId('badge-home').filter({ hasText: '1' }).waitFor();
    await alice.getByRole('button', { name: 'Direct messages' }).click();
    await alice.getByTestId('dm-link').filter({ hasText: 'bob' }).click();
    await alice.getByTestId('message-content').filter({ hasText: 'A private word' }).waitFor();
    await alice.getByTestId('badge-home').waitFor({ state: 'detached' });
    await bob.getByTestId('rail-group').first().click();
  });

  it('opens a long history at the newest message and pages older ones in by seq while scrolling up', async () => {
    const token = await alice.evaluate(() => localStorage.getItem('im.token'));
    const api = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
      const res = await fetch(`${server.base}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      assert.ok(res.ok, `${method} ${path}: ${res.status}`);
      return (await res.json()) as T;
    };
    const [group] = await api<Array<{ id: string }>>('GET', '/api/groups');
    const panel = await api<{ converseId: string }>('POST', `/api/groups/${group!.id}/panels`, {
      name: 'history',
      type: 'text',
    });
    for (let n = 1; n <= 130; n++) {
      await api('POST', `/api/converses/${panel.converseId}/messages`, { content: `history ${n}` });
    }
    // Bob has read them (elsewhere): with unread it would open at the first unread instead (catching-up.test.ts).
    const bobToken = await bob.evaluate(() => localStorage.getItem('im.token'));
    const acked = await fetch(`${server.base}/api/converses/${panel.converseId}/ack`, {
      method: 'POST',
      headers: { authorization: `Bearer ${bobToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ seq: 130 }),
    });
    assert.equal(acked.status, 204);
    await bob
      .getByTestId('panel-link')
      .filter({ hasText: 'history' })
      .and(bob.locator(':not(:has([data-testid^="badge"]))'))
      .waitFor();
    await bob.getByTestId('panel-link').filter({ hasText: 'history' }).click();
    await bob
      .getByTestId('message-content')
      .filter({ hasText: /^history 130$/ })
      .waitFor();
    assert.equal(
      await bob
        .getByTestId('message-content')
        .filter({ hasText: /^history 1$/ })
        .count(),
      0,
    );
    // Scroll to the top until the first message has been paged in (50 per page).
    const list = bob.getByTestId('message-list');
    for (let i = 0; i < 40; i++) {
      if (
        (await bob
          .getByTestId('message-content')
          .filter({ hasText: /^history 1$/ })
          .count()) > 0
      )
        break;
      await list.evaluate((el) => el.scrollTo({ top: 0 }));
      await bob.waitForTimeout(150);
    }
    await bob
      .getByTestId('message-content')
      .filter({ hasText: /^history 1$/ })
      .waitFor();
    await bob.getByText('This is the beginning of the conversation.').waitFor();
    const texts = await messageTexts(bob);
    const seqs = texts.map((t) => Number(/^history (\d+)$/.exec(t)?.[1]));
    assert.deepEqual(
      seqs,
      [...seqs].sort((a, b) => a - b),
      'rendered in seq order',
    );
    assert.equal(new Set(seqs).size, seqs.length, 'no message twice');
  });

  it("lists Alice's sessions, signs another one out, and changes her password", async () => {
    // A second login of Alice's, elsewhere.
    const other = (await (
      await fetch(`${server.base}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': 'Other device/1.0' },
        body: JSON.stringify({ username: 'alice', password: PASSWORD }),
      })
    ).json()) as { token: string };
    const meWith = (token: string) =>
      fetch(`${server.base}/api/users/me`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.status);
    assert.equal(await meWith(other.token), 200);

    await alice.getByRole('button', { name: 'Settings' }).click();
    const sessions = alice.getByTestId('session');
    await sessions.filter({ hasText: 'Other device/1.0' }).waitFor();
    assert.equal(await sessions.count(), 2);
    await alice.getByTestId('storage').waitFor();
    await alice.screenshot({ path: join(SHOTS, 'sessions.png') });
    await sessions.filter({ hasText: 'Other device/1.0' }).getByRole('button', { name: 'Sign out' }).click();
    await sessions.filter({ hasText: 'Other device/1.0' }).waitFor({ state: 'detached' });
    assert.equal(await meWith(other.token), 401);

    await alice.getByLabel('Current password').fill(PASSWORD);
    await alice.getByLabel('New password').fill('an even better secret');
    await alice.getByRole('button', { name: 'Change password' }).click();
    await alice.getByText('Password changed.').waitFor();
    await alice.keyboard.press('Escape');
    // Alice's own session kept working: she still chats, and the server confirms her message.
    await send(alice, 'Still here after the password change');
    await alice.getByTestId('message-content').filter({ hasText: 'Still here after the password change' }).waitFor();
    await alice.locator('[data-pending]').waitFor({ state: 'detached' });
  });

  it('fits a phone screen: the list and the conversation one at a time', async () => {
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    try {
      const page = await phone.newPage();
      const token = await bob.evaluate(() => localStorage.getItem('im.token'));
      await page.goto(server.base);
      await page.evaluate((t) => localStorage.setItem('im.token', t ?? ''), token);
      await page.goto(server.base);
      await page.getByTestId('rail-group').first().click();
      await page.getByTestId('message-content').first().waitFor();
      assert.equal(await page.getByRole('navigation', { name: 'Groups' }).isVisible(), false);
      await page.screenshot({ path: join(SHOTS, 'phone-chat.png') });
      await page.getByRole('button', { name: 'Back to the list' }).click();
      assert.equal(await page.getByRole('navigation', { name: 'Groups' }).isVisible(), true);
      await page.screenshot({ path: join(SHOTS, 'phone-list.png') });
    } finally {
      await phone.close();
    }
    assert.deepEqual(pageErrors, []);
  });
});
