// The accessibility audit, in headless Chromium against the single instance:
// axe-core runs over each main screen (sign-in, a group panel with messages,
// reactions, an image, code and a poll, a thread, Settings, group settings,
// the admin console, Explore), once in the dark theme and once in the light
// one (each picked by the browser's colour scheme, as a new visitor's would
// be), and fails on any serious or critical violation, naming its rule and
// elements. Then the theme choice in Settings: applied at once, kept across a
// reload and set before the page's body is parsed (no flash of the other
// theme). With UPDATE_SCREENSHOTS=1 it takes the README's light-theme pictures.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { AxeBuilder } from '@axe-core/playwright';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { groupWithMembers, openAs, registerAccount, typedApi, type Account } from './harness/api.ts';
import { describePagesOnFailure, send } from './harness/app.ts';
import { STEP_DEADLINE_MS } from './harness/deadline.ts';
import { PNG } from './harness/png.ts';
import { SHOTS } from './harness/server.ts';
import { webAppStory } from './harness/story.ts';
import { watchPage, type Windows } from './harness/windows.ts';

type Theme = 'dark' | 'light';

/** Serious or critical violations of the page as it is now, one line per rule: its id, help and elements. */
async function violations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help}\n    ${v.nodes.map((n) => n.target.join(' ')).join('\n    ')}`);
}

/**
 * The screens a step audits: each adds its violations (named by the screen),
 * and the step fails at its end with all of them, so that one run lists every one.
 */
class Audit {
  readonly found: string[] = [];
  async check(page: Page, screen: string): Promise<void> {
    for (const violation of await violations(page)) this.found.push(`${screen}: ${violation}`);
  }
  assertClean(): void {
    if (this.found.length)
      assert.fail(`${this.found.length} serious or critical violations:\n${this.found.join('\n')}`);
  }
}

/** Audits a dialog's every tab, each once its panel shows (named by the tab). */
async function auditTabs(audit: Audit, page: Page, dialog: Locator, screen: string): Promise<void> {
  await dialog.getByRole('tab').first().waitFor();
  for (const tab of await dialog.getByRole('tab').all()) {
    const name = (await tab.textContent()) ?? '';
    await tab.click();
    await dialog.locator('[role="tab"][aria-selected="true"]').filter({ hasText: name }).waitFor();
    await dialog.getByRole('tabpanel').waitFor();
    await dialog.getByRole('tabpanel').getByText('Loading…').waitFor({ state: 'detached' });
    await audit.check(page, `${screen}, ${name}`);
  }
}

describe('accessibility: axe over every main screen, in the dark and the light theme', () => {
  const story = webAppStory(import.meta.url, { ADMIN_USERNAMES: 'root' });
  const windows: Windows = { pages: {}, errors: [] };
  const contexts: BrowserContext[] = [];
  let root: Account;
  let group: { groupId: string; converseId: string };

  afterEach(describePagesOnFailure(() => windows.pages));
  // Each step's windows close after it (and after the failure report above).
  afterEach(async () => {
    for (const context of contexts.splice(0)) await context.close();
    windows.pages = {};
  });

  /** A window whose browser prefers `theme`, at `size` (a phone: 390x844), signed in as `account` unless null. */
  const openIn = async (theme: Theme, label: string, account: Account | null, path = '/', phone = false) => {
    const context = await story.browser.newContext({
      colorScheme: theme,
      viewport: phone ? { width: 390, height: 844 } : { width: 1280, height: 800 },
      ...(phone ? { isMobile: true, hasTouch: true } : {}),
    });
    contexts.push(context);
    context.setDefaultTimeout(STEP_DEADLINE_MS);
    const page = await context.newPage();
    watchPage(windows, label, page);
    if (account) await openAs(page, story.server.base, account, path);
    else await page.goto(`${story.server.base}${path}`);
    assert.equal(await page.locator('html').getAttribute('data-theme'), theme, 'the theme follows the browser');
    return page;
  };

  const timeline = (page: Page) => page.locator('.converse');

  /** The group panel with everything loaded: the messages, the image's thumbnail, the poll, the reactions. */
  const openPanel = async (theme: Theme, label: string, phone = false) => {
    const path = `/g/${group.groupId}/${group.converseId}`;
    // A phone shows the list or a conversation: it starts on the list (where Settings is) and opens the group.
    const page = await openIn(theme, label, root, phone ? '/' : path, phone);
    if (phone)
      await page
        .getByTestId('rail-group')
        .and(page.getByRole('button', { name: 'Crew', exact: true }))
        .click();
    await page.getByTestId('converse-title').filter({ hasText: '#general' }).waitFor();
    await page.getByRole('region', { name: 'Poll: Which day for the clean-up?' }).waitFor();
    await page.getByTestId('thread-summary').first().waitFor();
    await page.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>('[data-testid="thumbnail"]');
      return img !== null && img.complete && img.naturalWidth > 0;
    });
    return page;
  };

  it('sets up a public group whose panel has messages, a mention, code, reactions, an image, a poll and a thread', async () => {
    const base = story.server.base;
    root = await registerAccount(base, 'root');
    const ben = await registerAccount(base, 'ben');
    group = await groupWithMembers(base, root, 'Crew', [ben]);
    const asRoot = typedApi(base, root.token);
    const asBen = typedApi(base, ben.token);
    await asRoot.call('group.update', { groupId: group.groupId, visibility: 'public' });
    const { converseId } = group;
    const say = async (api: typeof asRoot, content: string) => {
      const sent = await api.call('chat.send', { converseId, content });
      assert.ok('id' in sent);
      return sent;
    };
    const welcome = await say(asRoot, 'Welcome to the **crew**, @ben! The plan is in the [wiki](https://example.org).');
    await asBen.call('chat.react', { messageId: welcome.id, emoji: '👍' });
    await asRoot.call('chat.react', { messageId: welcome.id, emoji: '🎉' });
    const tent = await say(asBen, 'Who is bringing the tent?');
    await asRoot.call('chat.send', { converseId, threadId: tent.id, content: 'I can, if someone brings the stove' });
    await asBen.call('chat.send', { converseId, threadId: tent.id, content: 'Stove is mine' });
    await say(asBen, 'The packing script:\n```js\nconst bags = 3; // one each\nconsole.log(`${bags} bags`);\n```');
    await asRoot.call('chat.send', {
      converseId,
      poll: { question: 'Which day for the clean-up?', options: ['Friday', 'Saturday', 'Sunday'] },
    });

    // The image goes through the composer, as people send one.
    const page = await openIn('dark', 'setup', root, `/g/${group.groupId}/${converseId}`);
    await page.getByTestId('file-input').setInputFiles({ name: 'campsite.png', mimeType: 'image/png', buffer: PNG });
    await page.getByTestId('upload').filter({ hasText: 'campsite.png' }).waitFor();
    await page.waitForFunction(() => !document.querySelector('.upload.uploading'));
    await send(page, 'The campsite map');
    await page.getByTestId('thumbnail').waitFor();
    await page.locator('[data-pending]').waitFor({ state: 'detached' });
  });

  for (const theme of ['dark', 'light'] as const) {
    it(`${theme}: the sign-in screen`, async () => {
      const audit = new Audit();
      const page = await openIn(theme, `sign-in-${theme}`, null);
      await page.getByRole('button', { name: 'Log in' }).waitFor();
      await audit.check(page, 'sign-in');
      await page.getByRole('button', { name: 'Create an account' }).click();
      await page.getByRole('button', { name: 'Create account' }).waitFor();
      await audit.check(page, 'create an account');
      if (theme === 'light') await page.screenshot({ path: join(SHOTS, 'light-login.png') });
      audit.assertClean();
    });

    it(`${theme}: a group panel with messages, reactions, an image, code and a poll, then a thread`, async () => {
      const audit = new Audit();
      const page = await openPanel(theme, `chat-${theme}`);
      await audit.check(page, 'chat');
      if (theme === 'light') await page.screenshot({ path: join(SHOTS, 'light-chat.png') });

      await timeline(page).getByTestId('thread-summary').first().click();
      await page.getByTestId('thread-pane').getByTestId('thread-reply').filter({ hasText: 'Stove is mine' }).waitFor();
      await audit.check(page, 'thread');
      // The picture shows the reply box ready, not the actions of the message last clicked.
      await page.getByTestId('thread-pane').getByLabel('Reply in thread').focus();
      await page.mouse.move(1000, 600);
      if (theme === 'light') await page.screenshot({ path: join(SHOTS, 'light-thread.png') });
      audit.assertClean();
    });

    it(`${theme}: Settings, the group's settings, the admin console and Explore`, async () => {
      const audit = new Audit();
      const page = await openPanel(theme, `dialogs-${theme}`);
      await page.getByRole('button', { name: 'Settings' }).click();
      await page.getByRole('dialog', { name: 'Settings' }).getByRole('group', { name: 'Theme' }).waitFor();
      await audit.check(page, 'settings');
      await page.keyboard.press('Escape');

      await page.getByRole('button', { name: 'Crew: group menu' }).click();
      await page.getByRole('menuitem', { name: 'Group settings' }).click();
      await auditTabs(audit, page, page.getByRole('dialog', { name: 'Crew settings' }), 'group settings');
      await page.keyboard.press('Escape');

      await page.getByRole('button', { name: 'Admin console' }).click();
      await page.getByRole('dialog', { name: 'Admin console' }).getByTestId('admin-user').first().waitFor();
      await auditTabs(audit, page, page.getByRole('dialog', { name: 'Admin console' }), 'admin console');
      await page.keyboard.press('Escape');

      await page
        .getByRole('navigation', { name: 'Groups' })
        .getByRole('button', { name: 'Explore public groups' })
        .click();
      await page
        .getByRole('region', { name: 'Explore public groups' })
        .getByTestId('directory-group')
        .filter({ hasText: 'Crew' })
        .waitFor();
      await audit.check(page, 'explore');
      audit.assertClean();
    });

    it(`${theme}: the panel on a phone`, async () => {
      const audit = new Audit();
      const page = await openPanel(theme, `phone-${theme}`, true);
      await audit.check(page, 'phone chat');
      if (theme === 'light') await page.screenshot({ path: join(SHOTS, 'light-phone-chat.png') });
      await page.getByRole('button', { name: 'Back to the list' }).click();
      await page.getByRole('navigation', { name: 'Groups' }).waitFor();
      await audit.check(page, 'phone list');
      if (theme === 'light') await page.screenshot({ path: join(SHOTS, 'light-phone-list.png') });
      audit.assertClean();
    });
  }

  it('switches the theme in Settings at once, keeps it across a reload and sets it before the body is parsed', async () => {
    const page = await openPanel('dark', 'theme-choice');
    // What <html data-theme> says when <body> is first inserted: only the blocking script in <head> has run then.
    await page.addInitScript(() => {
      const seen = new MutationObserver(() => {
        if (!document.body) return;
        sessionStorage.setItem('theme-at-body', document.documentElement.dataset.theme ?? 'none');
        seen.disconnect();
      });
      seen.observe(document, { childList: true, subtree: true });
    });
    const background = () => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
    const darkBackground = await background();

    await page.getByRole('button', { name: 'Settings' }).click();
    const themes = page.getByRole('dialog', { name: 'Settings' }).getByRole('group', { name: 'Theme' });
    assert.equal(await themes.getByRole('radio', { name: 'Same as the system (dark)' }).isChecked(), true);
    await themes.getByRole('radio', { name: 'Light' }).check();
    await page.locator('html[data-theme="light"]').waitFor({ state: 'attached' });
    assert.notEqual(await background(), darkBackground, 'the page is repainted in the light colours');
    assert.equal(await page.locator('meta[name="color-scheme"]').getAttribute('content'), 'light');

    await page.reload();
    await page.getByTestId('converse-title').filter({ hasText: '#general' }).waitFor();
    assert.equal(await page.locator('html').getAttribute('data-theme'), 'light');
    assert.equal(await page.evaluate(() => sessionStorage.getItem('theme-at-body')), 'light');
    assert.notEqual(await background(), darkBackground);

    await page.getByRole('button', { name: 'Settings' }).click();
    await themes.getByRole('radio', { name: 'Same as the system (dark)' }).check();
    await page.locator('html[data-theme="dark"]').waitFor({ state: 'attached' });
    assert.equal(await background(), darkBackground);
    assert.deepEqual(windows.errors, []);
  });
});
