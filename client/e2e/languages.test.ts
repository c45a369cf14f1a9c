// Languages in Chromium: a browser whose language is German gets the sign-in
// screen and the app in German (with <html lang="de">), a plural written as
// German writes it; 简体中文 chosen in Settings changes the app at once and
// is kept after a reload; a visitor of a public group set to German reads
// its page in German whatever their browser speaks.
import assert from 'node:assert/strict';
import { afterEach, before, describe, it } from 'node:test';
import type { Group } from '@im/protocol';
import { type BrowserContext, type Page } from 'playwright-core';
import { api, registerAccount, type Account } from './harness/api.ts';
import { collectPageErrors, describePagesOnFailure, PASSWORD } from './harness/app.ts';
import { STEP_DEADLINE_MS } from './harness/deadline.ts';
import { webAppStory } from './harness/story.ts';

describe('languages in Chromium: German from the browser, Chinese chosen in Settings, a German public page', () => {
  const story = webAppStory(import.meta.url);
  const pageErrors: string[] = [];
  let context: BrowserContext;
  let page: Page;
  let owner: Account;
  let panelId: string;

  afterEach(describePagesOnFailure(() => ({ greta: page })));

  before(async () => {
    const base = story.server.base;
    // Setup (API): two public groups, one with one member, one with two; the first speaks German.
    owner = await registerAccount(base, 'olga');
    const guest = await registerAccount(base, 'gast');
    const stammtisch = await api<Group>(base, owner.token, 'POST', '/api/groups', { name: 'Stammtisch' });
    await api(base, owner.token, 'PATCH', `/api/groups/${stammtisch.id}`, { visibility: 'public', language: 'de' });
    panelId = stammtisch.panels[0]!.id;
    await api(base, owner.token, 'PATCH', `/api/groups/${stammtisch.id}/panels/${panelId}`, { webPublic: true });
    await api(base, owner.token, 'POST', `/api/converses/${stammtisch.panels[0]!.converseId}/messages`, {
      content: 'Prost!',
    });
    const pair = await api<Group>(base, owner.token, 'POST', '/api/groups', { name: 'Zweiergruppe' });
    await api(base, owner.token, 'PATCH', `/api/groups/${pair.id}`, { visibility: 'public' });
    await api(base, guest.token, 'POST', `/api/groups/${pair.id}/join`);
    await registerAccount(base, 'greta');

    context = await story.browser.newContext({ locale: 'de-DE', viewport: { width: 1280, height: 900 } });
    context.setDefaultTimeout(STEP_DEADLINE_MS);
    page = await context.newPage();
    collectPageErrors(page, 'greta', pageErrors);
  });

  const htmlLang = () => page.evaluate(() => document.documentElement.lang);
  const memberCounts = async () => {
    const explore = page.getByTestId('directory-group');
    await explore.filter({ hasText: 'Zweiergruppe' }).waitFor();
    return Object.fromEntries(
      await Promise.all(
        ['Stammtisch', 'Zweiergruppe'].map(async (name) => [
          name,
          await explore.filter({ hasText: name }).getByTestId('member-count').textContent(),
        ]),
      ),
    ) as Record<string, string>;
  };

  it('shows the sign-in screen and the app in German to a German browser', async () => {
    await page.goto(story.server.base);
    await page.getByRole('heading', { name: 'Willkommen zurück' }).waitFor();
    assert.equal(await htmlLang(), 'de');
    await page.getByLabel('Benutzername').fill('greta');
    await page.getByLabel('Passwort').fill(PASSWORD);
    await page.getByRole('button', { name: 'Anmelden' }).click();
    await page.getByTestId('connection').and(page.locator('[data-state="online"]')).waitFor({ state: 'attached' });

    await page.getByRole('button', { name: 'Öffentliche Gruppen entdecken' }).first().click();
    const explore = page.getByRole('region', { name: 'Öffentliche Gruppen entdecken' });
    await explore.getByRole('searchbox', { name: 'Öffentliche Gruppen durchsuchen' }).waitFor();
    // One member, two members: German's singular and plural.
    assert.deepEqual(await memberCounts(), { Stammtisch: '1 Mitglied', Zweiergruppe: '2 Mitglieder' });
    await explore.getByRole('button', { name: 'Beitreten Stammtisch' }).waitFor();
  });

  it('switches to 简体中文 in Settings at once, and keeps it after a reload', async () => {
    // The Settings button is the shell's (its own translation), found by any of its names.
    await page.getByRole('button', { name: /^(Settings|Einstellungen|设置)$/ }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('combobox', { name: 'Sprache' }).selectOption('zh');
    await dialog.getByRole('combobox', { name: '语言' }).waitFor();
    assert.equal(await htmlLang(), 'zh-Hans');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    // Chinese has one form for every count.
    assert.deepEqual(await memberCounts(), { Stammtisch: '1 位成员', Zweiergruppe: '2 位成员' });
    await page.getByRole('heading', { name: '发现公开群组' }).waitFor();

    await page.reload();
    await page.getByRole('heading', { name: '发现公开群组' }).waitFor();
    assert.equal(await htmlLang(), 'zh-Hans');
    assert.deepEqual(await memberCounts(), { Stammtisch: '1 位成员', Zweiergruppe: '2 位成员' });
  });

  it("shows a visitor the public page of a German group in German, whatever the visitor's browser speaks", async () => {
    const visitor = await story.browser.newContext({ locale: 'en-US' });
    try {
      const tab = await visitor.newPage();
      const res = await tab.goto(`${story.server.base}/p/${panelId}`);
      assert.equal(res?.status(), 200);
      assert.equal(await tab.evaluate(() => document.documentElement.lang), 'de');
      await tab.getByRole('link', { name: 'An der Unterhaltung teilnehmen' }).waitFor();
      await tab.getByText('Prost!').waitFor();
      await tab.getByRole('link', { name: 'Atom-Feed' }).waitFor();
    } finally {
      await visitor.close();
    }
    assert.deepEqual(pageErrors, []);
  });
});
