// E-mail in the web client, in headless Chromium against the single instance
// sending through a real SMTP server (the test kit's sink on loopback). Ada
// adds her address in Settings and opens the verification link from the
// e-mail. Later, signed out, she has forgotten her password: "Forgot
// password?" on the sign-in screen, her name, the link from the e-mail, a new
// password twice, and she signs in with it; her other window was signed out,
// and the link does not work twice. A server admin makes a reset link for Bob
// in the admin console, and Bob sets his password with it. A forged
// unsubscribe link is refused on its page.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, afterEach, before, describe, it } from 'node:test';
import type { Me } from '@im/protocol';
import { freePort, type ServerProcess } from '@im/dev-servers';
import { openTestEnv, startSmtpSink, type SmtpSink, type TestEnv } from '@im/testkit';
import { type Browser, type Page } from 'playwright-core';
import { api, registerAccount } from './harness/api.ts';
import { collectPageErrors, describePagesOnFailure, PASSWORD, register } from './harness/app.ts';
import { launchBrowser } from './harness/browser.ts';
import { SHOTS, startWebApp } from './harness/server.ts';
import { STEP_DEADLINE_MS } from './harness/deadline.ts';

const ADA_EMAIL = 'ada@example.test';
const NEW_PASSWORD = 'a brand new secret';

describe('e-mail in the web client: verification, a forgotten password, an admin reset link', () => {
  let env: TestEnv;
  let sink: SmtpSink;
  let server: ServerProcess;
  let browser: Browser;
  let publicUrl: string;
  const pages: Record<string, Page> = {};
  const pageErrors: string[] = [];

  before(async () => {
    env = await openTestEnv(import.meta.url);
    sink = await startSmtpSink();
    // The links in the e-mails name the server's public address: its port is chosen first.
    const port = await freePort();
    publicUrl = `http://127.0.0.1:${port}`;
    server = await startWebApp(env, {
      PORT: String(port),
      PUBLIC_URL: publicUrl,
      SMTP_URL: sink.url,
      MAIL_FROM: 'Chat <chat@example.test>',
      ADMIN_USERNAMES: 'root',
    });
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
    await sink?.stop();
    await env?.close();
  });
  afterEach(describePagesOnFailure(() => pages));

  const newPage = async (label: string, viewport = { width: 1280, height: 800 }): Promise<Page> => {
    const context = await browser.newContext({ viewport });
    context.setDefaultTimeout(STEP_DEADLINE_MS);
    const page = await context.newPage();
    pages[label] = page;
    collectPageErrors(page, label, pageErrors);
    return page;
  };

  /** The link to `path` (/verify-email, /reset-password) in the next e-mail to `to`. */
  const linkInMail = async (to: string, path: string): Promise<string> => {
    const mail = await sink.waitForMail((m) => m.to.includes(to) && m.text.includes(`${publicUrl}${path}?`));
    const escaped = `${publicUrl}${path}`.replace(/[.?/]/g, '\\$&');
    const link = new RegExp(`${escaped}\\?token=[^\\s"<>]+`).exec(mail.text)?.[0];
    assert.ok(link, `no ${path} link in the e-mail to ${to}: ${mail.text}`);
    return link;
  };

  it('lets Ada add her address in Settings and verify it with the link from the e-mail', async () => {
    const page = await newPage('ada');
    await register(page, server.base, 'ada');
    await page.getByRole('button', { name: 'Settings' }).click();
    const section = page.getByTestId('email-settings');
    await section.scrollIntoViewIfNeeded();
    await section.getByLabel('E-mail address').fill(ADA_EMAIL);
    await section.getByRole('button', { name: 'Add address' }).click();
    await section
      .getByRole('status')
      .filter({ hasText: `We sent a verification link to ${ADA_EMAIL}` })
      .waitFor();
    await section.getByTestId('email-state').filter({ hasText: 'Not verified' }).waitFor();
    await section.getByRole('button', { name: 'Resend verification' }).waitFor();

    const link = await linkInMail(ADA_EMAIL, '/verify-email');
    const linkPage = await page.context().newPage();
    pages.adaLink = linkPage;
    collectPageErrors(linkPage, 'adaLink', pageErrors);
    await linkPage.goto(link);
    await linkPage.getByTestId('email-verified').waitFor();
    await linkPage.getByRole('button', { name: 'Open the app' }).click();
    await linkPage.getByRole('button', { name: 'Settings' }).click();
    const verified = linkPage.getByTestId('email-settings');
    await verified.getByTestId('email-state').filter({ hasText: 'Verified' }).waitFor();
    assert.equal(await verified.getByRole('button', { name: 'Resend verification' }).count(), 0);
    await verified.getByLabel('Daily digest').check();
    await verified.getByRole('status').filter({ hasText: 'E-mail notifications saved.' }).waitFor();
    await verified.scrollIntoViewIfNeeded();
    await linkPage.screenshot({ path: join(SHOTS, 'email-settings.png') });
    // Opened again, the link says it was used, in the server's words.
    await linkPage.goto(link);
    const used = linkPage.getByTestId('email-verify-error');
    await used.waitFor();
    assert.match((await used.textContent()) ?? '', /\S/);
    await linkPage.close();
    delete pages.adaLink;

    const token = (await page.evaluate(() => localStorage.getItem('im.token')))!;
    const me = await api<Me & { emailVerified?: boolean; emailNotifications?: string }>(
      server.base,
      token,
      'GET',
      '/api/users/me',
    );
    assert.equal(me.emailVerified, true);
    assert.equal(me.emailNotifications, 'daily');
  });

  it('lets Ada, signed out, reset a forgotten password from the sign-in screen and sign in with it', async () => {
    const page = await newPage('forgot', { width: 390, height: 844 });
    await page.goto(server.base);
    await page.getByRole('button', { name: 'Forgot password?' }).click();
    const field = page.getByLabel('Username or e-mail');
    assert.ok(await field.evaluate((e) => e === document.activeElement), 'the field has the focus');
    // A name with no account gets the same answer as hers.
    await field.fill('nobody-here');
    await page.getByRole('button', { name: 'Send reset link' }).click();
    const unknownAnswer = await page.getByTestId('reset-sent').textContent();
    await page.getByRole('button', { name: 'Back to log in' }).click();
    await page.getByRole('button', { name: 'Forgot password?' }).click();
    await page.getByLabel('Username or e-mail').fill('ada');
    await page.getByRole('button', { name: 'Send reset link' }).click();
    const answer = page.getByTestId('reset-sent');
    await answer.waitFor();
    assert.equal(await answer.textContent(), unknownAnswer);
    assert.ok(
      await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
      'nothing runs off a phone screen',
    );
    await page.screenshot({ path: join(SHOTS, 'forgot-password.png') });

    const link = await linkInMail(ADA_EMAIL, '/reset-password');
    await page.goto(link);
    await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('New password again').fill(`${NEW_PASSWORD}.`);
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.getByRole('alert').filter({ hasText: 'The two passwords differ.' }).waitFor();
    await page.getByLabel('New password again').fill(NEW_PASSWORD);
    await page.screenshot({ path: join(SHOTS, 'reset-password.png') });
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.getByTestId('reset-done').waitFor();
    // Every session of hers ended: the window still signed in shows the sign-in screen.
    await pages.ada!.getByRole('button', { name: 'Log in', exact: true }).waitFor();

    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    assert.equal(new URL(page.url()).pathname, '/');
    await page.getByLabel('Username').fill('ada');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await page.getByRole('alert').waitFor();
    await page.getByLabel('Password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await page.getByRole('button', { name: 'Settings' }).waitFor();

    // The link worked once: opened again, it says why not, in the server's words.
    const again = await newPage('again');
    await again.goto(link);
    await again.getByLabel('New password', { exact: true }).fill('yet another secret');
    await again.getByLabel('New password again').fill('yet another secret');
    await again.getByRole('button', { name: 'Set new password' }).click();
    const refusal = again.getByRole('alert');
    await refusal.waitFor();
    assert.match((await refusal.textContent()) ?? '', /\S/);
    assert.equal(await again.getByTestId('reset-done').count(), 0);
  });

  it('lets a server admin make a reset link for Bob, who sets his password with it', async () => {
    const [root] = await Promise.all([registerAccount(server.base, 'root'), registerAccount(server.base, 'bob')]);
    const page = await newPage('root');
    await page.goto(server.base);
    await page.evaluate((token) => localStorage.setItem('im.token', token), root.token);
    await page.reload();
    await page.getByRole('button', { name: 'Admin console' }).click();
    const console_ = page.getByRole('dialog', { name: 'Admin console' });
    await console_.getByLabel('Search users').fill('bob');
    const row = console_.getByTestId('admin-user').filter({ hasText: '@bob' });
    await row.getByRole('button', { name: 'Make reset link' }).click();
    const url = await row.getByTestId('reset-url').inputValue();
    assert.match(url, new RegExp(`^${publicUrl.replace(/[.]/g, '\\.')}/reset-password\\?token=`));
    await row.getByRole('button', { name: /^Copy/ }).waitFor();
    await page.screenshot({ path: join(SHOTS, 'admin-reset-link.png') });

    const bobPage = await newPage('bob');
    await bobPage.goto(url);
    await bobPage.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await bobPage.getByLabel('New password again').fill(NEW_PASSWORD);
    await bobPage.getByRole('button', { name: 'Set new password' }).click();
    await bobPage.getByTestId('reset-done').waitFor();
    await bobPage.getByRole('button', { name: 'Log in', exact: true }).click();
    await bobPage.getByLabel('Username').fill('bob');
    await bobPage.getByLabel('Password').fill(NEW_PASSWORD);
    await bobPage.getByRole('button', { name: 'Log in', exact: true }).click();
    await bobPage.getByRole('button', { name: 'Settings' }).waitFor();

    // An unsubscribe link the server does not take (forged) is refused on its page with the server's reason.
    const forged = await newPage('unsubscribe');
    await forged.goto(`${server.base}/unsubscribe?token=forged`);
    await forged.getByRole('button', { name: 'Turn these e-mails off' }).click();
    await forged.getByRole('alert').waitFor();
    assert.equal(await forged.getByTestId('unsubscribed').count(), 0);
    assert.equal(pageErrors.length, 0, pageErrors.join('\n'));
  });
});
