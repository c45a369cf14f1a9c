// Single sign-on in the web client, in headless Chromium against the single
// instance and a real OpenID Connect provider (the test kit's). Nadia clicks
// "Sign in with Acme ID", signs in at the provider and lands in the app
// signed in, her name shown; her settings say her account is linked and has
// no password. Quentin cancels at the provider and is told so on the login
// screen. Omar, who registered with a password, links his Acme ID account
// from his settings, logs out, and signs in again with the button alone.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, afterEach, before, describe, it } from 'node:test';
import type { Me } from '@im/protocol';
import { freePort, type ServerProcess } from '@im/dev-servers';
import { openTestEnv, startOidcProvider, type TestEnv, type TestOidcProvider } from '@im/testkit';
import { type Browser, type Page } from 'playwright-core';
import { api } from './harness/api.ts';
import { collectPageErrors, describePagesOnFailure, register } from './harness/app.ts';
import { launchBrowser } from './harness/browser.ts';
import { SHOTS, startWebApp } from './harness/server.ts';
import { STEP_DEADLINE_MS } from './harness/deadline.ts';

const LABEL = 'Sign in with Acme ID';

describe('single sign-on in the web client', () => {
  let env: TestEnv;
  let idp: TestOidcProvider;
  let server: ServerProcess;
  let browser: Browser;
  const pages: Record<string, Page> = {};
  const pageErrors: string[] = [];

  before(async () => {
    env = await openTestEnv(import.meta.url);
    // The provider must know the callback URL, so the platform's port is chosen first.
    const port = await freePort();
    idp = await startOidcProvider({
      redirectUris: [`http://127.0.0.1:${port}/api/auth/oidc/callback`],
      profileInIdToken: true,
    });
    server = await startWebApp(env, { PORT: String(port), ...idp.env, OIDC_BUTTON_LABEL: LABEL });
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
    await idp?.close();
    await env?.close();
  });
  afterEach(describePagesOnFailure(() => pages));

  const newPage = async (label: string): Promise<Page> => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    context.setDefaultTimeout(STEP_DEADLINE_MS);
    const page = await context.newPage();
    pages[label] = page;
    collectPageErrors(page, label, pageErrors);
    return page;
  };

  /** At the provider's login page: types the provider username and accepts. */
  const signInAtProvider = async (page: Page, login: string) => {
    await page.waitForURL(`${idp.issuer}/interaction/**`);
    await page.getByLabel('Provider username').fill(login);
    await page.getByRole('button', { name: 'Sign in and allow' }).click();
  };

  it('signs Nadia in with the button: she lands in the app with her name shown', async () => {
    idp.addAccount({ login: 'nadia', name: 'Nadia Rahman', preferredUsername: 'nadia', email: 'nadia@acme.test' });
    const page = await newPage('nadia');
    await page.goto(server.base);
    await page.getByRole('button', { name: LABEL }).click();
    await signInAtProvider(page, 'nadia');
    await page.waitForURL(`${server.base}/`);
    await page.getByRole('heading', { name: 'Hello, Nadia Rahman' }).waitFor();
    await page.getByTestId('connection').and(page.locator('[data-state="online"]')).waitFor({ state: 'attached' });
    assert.equal(new URL(page.url()).search, '', 'the one-time code is gone from the address');
    await page.screenshot({ path: join(SHOTS, 'sso-signed-in.png') });

    const token = (await page.evaluate(() => localStorage.getItem('im.token')))!;
    const me = await api<Me>(server.base, token, 'GET', '/api/users/me');
    assert.equal(me.username, 'nadia');
    assert.equal(me.ssoLinked, true);

    await page.getByRole('button', { name: 'Settings' }).click();
    const sso = page.getByTestId('sso-settings');
    await sso.filter({ hasText: 'Your account is linked to Acme ID' }).waitFor();
    assert.match((await sso.textContent()) ?? '', /no password/);
    assert.equal(await page.getByRole('heading', { name: 'Change password' }).count(), 0);
  });

  it('tells Quentin on the login screen that he cancelled at the provider', async () => {
    const page = await newPage('quentin');
    await page.goto(server.base);
    await page.getByRole('button', { name: LABEL }).click();
    await page.waitForURL(`${idp.issuer}/interaction/**`);
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('alert').filter({ hasText: 'The sign-in was cancelled at the identity provider.' }).waitFor();
    await page.screenshot({ path: join(SHOTS, 'sso-cancelled.png') });
    assert.equal(new URL(page.url()).pathname, '/');
    assert.equal(await page.getByRole('button', { name: 'Log in' }).count(), 1);
  });

  it('lets Omar link his password account from his settings, then sign in with the button', async () => {
    idp.addAccount({ login: 'omar.acme', name: 'Omar at Acme' });
    const page = await newPage('omar');
    await register(page, server.base, 'omar');
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByTestId('sso-settings').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SHOTS, 'sso-link.png') });
    await page.getByRole('button', { name: 'Link Acme ID account' }).click();
    await signInAtProvider(page, 'omar.acme');
    await page.getByRole('status').filter({ hasText: 'Your account is now linked' }).waitFor();
    const token = (await page.evaluate(() => localStorage.getItem('im.token')))!;
    assert.equal((await api<Me>(server.base, token, 'GET', '/api/users/me')).ssoLinked, true);

    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('button', { name: 'Log out', exact: true }).click();
    await page.getByRole('button', { name: LABEL }).click();
    // Still signed in at the provider: it sends him straight back, into his own account.
    await page.getByRole('heading', { name: 'Hello, omar' }).waitFor();
    assert.equal(pageErrors.length, 0, pageErrors.join('\n'));
  });
});
