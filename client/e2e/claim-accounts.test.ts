// Handing over an imported account, in headless Chromium against the single
// instance: an import made an account for Dana (no password, marked
// imported; written here straight into the database as the importer writes
// it). Root, a server admin, finds her in the admin console, sees her marked
// "Imported" and makes a claim link. Dana opens it, picks a password and is
// signed in to her account at once; the link does not work a second time,
// and the console no longer marks her.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { freePort } from '@im/dev-servers';
import mongoose from 'mongoose';
import { type Page } from 'playwright-core';
import { api, openAs, registerAccount, type Account } from './harness/api.ts';
import { collectPageErrors, describePagesOnFailure } from './harness/app.ts';
import { SHOTS } from './harness/server.ts';
import { webAppStory } from './harness/story.ts';
import { STEP_DEADLINE_MS } from './harness/deadline.ts';

const DANAS_PASSWORD = 'dana picks her own';

describe('claiming an imported account in the web client', () => {
  let publicUrl = '';
  // The claim link names the server's public address: its port is chosen first.
  const story = webAppStory(import.meta.url, async () => {
    const port = await freePort();
    publicUrl = `http://127.0.0.1:${port}`;
    return { PORT: String(port), PUBLIC_URL: publicUrl, ADMIN_USERNAMES: 'root' };
  });
  const pages: Record<string, Page> = {};
  const pageErrors: string[] = [];
  let root: Account;
  let danaId: string;
  let claimUrl: string;

  afterEach(describePagesOnFailure(() => pages));

  const newPage = async (label: string): Promise<Page> => {
    const context = await story.browser.newContext({ viewport: { width: 1280, height: 800 } });
    context.setDefaultTimeout(STEP_DEADLINE_MS);
    const page = await context.newPage();
    pages[label] = page;
    collectPageErrors(page, label, pageErrors);
    return page;
  };

  const danaRow = (page: Page) =>
    page.getByRole('dialog', { name: 'Admin console' }).getByTestId('admin-user').filter({ hasText: '@dana' });

  it('sets up: root is a server admin, and an import made an account for Dana', async () => {
    root = await registerAccount(story.server.base, 'root');
    const connection = await mongoose.createConnection(story.env.mongoUrl).asPromise();
    try {
      const _id = new mongoose.Types.ObjectId();
      await connection.collection('users').insertOne({
        _id,
        username: 'dana',
        nickname: 'Dana Imported',
        nicknameLower: 'dana imported',
        status: 'active',
        imported: true,
        createdAt: new Date('2024-01-01T00:00:00Z'),
      });
      danaId = _id.toHexString();
    } finally {
      await connection.close();
    }
  });

  it('lets root see Dana marked as imported and make her a claim link', async () => {
    const page = await newPage('root');
    await openAs(page, story.server.base, root);
    await page.getByRole('button', { name: 'Admin console' }).click();
    await page.getByRole('dialog', { name: 'Admin console' }).getByLabel('Search users').fill('dana');
    const row = danaRow(page);
    await row.getByTestId('user-imported').waitFor();
    assert.equal(await row.getByRole('button', { name: 'Make reset link' }).count(), 0, 'no password to reset');
    await row.getByRole('button', { name: 'Claim link' }).click();
    claimUrl = await row.getByTestId('claim-url').inputValue();
    assert.ok(claimUrl.startsWith(`${publicUrl}/claim?token=`), claimUrl);
    await row.getByRole('button', { name: /^Copy/ }).waitFor();
    await page.screenshot({ path: join(SHOTS, 'admin-claim-link.png') });
  });

  it('lets Dana set her password with the link and be signed in to her account', async () => {
    const page = await newPage('dana');
    await page.goto(claimUrl);
    const form = page.getByRole('form', { name: 'Claim your account' });
    await form.getByLabel('Password', { exact: true }).fill(DANAS_PASSWORD);
    await form.getByLabel('Password again').fill(DANAS_PASSWORD);
    await form.getByRole('button', { name: 'Claim account' }).click();
    await page.getByRole('button', { name: 'Settings' }).waitFor();
    await page.getByTestId('connection').and(page.locator('[data-state="online"]')).waitFor({ state: 'attached' });
    assert.equal(new URL(page.url()).pathname, '/', 'the link is gone from the address bar');
    const me = await api<{ id: string; hasPassword: boolean }>(
      story.server.base,
      await page.evaluate(() => localStorage.getItem('im.token')),
      'GET',
      '/api/users/me',
    );
    assert.deepEqual([me.id, me.hasPassword], [danaId, true]);
  });

  it('refuses the link the second time, and the console no longer marks Dana', async () => {
    const context = await story.browser.newContext();
    const page = await context.newPage();
    pages.again = page;
    await page.goto(claimUrl);
    await page.getByLabel('Password', { exact: true }).fill('someone else now');
    await page.getByLabel('Password again').fill('someone else now');
    await page.getByRole('button', { name: 'Claim account' }).click();
    assert.match((await page.getByRole('alert').textContent()) ?? '', /already used/);

    const admin = pages.root!;
    await admin.reload();
    await admin.getByRole('button', { name: 'Admin console' }).click();
    await admin.getByRole('dialog', { name: 'Admin console' }).getByLabel('Search users').fill('dana');
    const row = danaRow(admin);
    await row.getByRole('button', { name: 'Make reset link' }).waitFor();
    assert.equal(await row.getByTestId('user-imported').count(), 0);
    assert.deepEqual(pageErrors, []);
  });
});
