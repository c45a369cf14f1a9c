// Public groups in the web client, in headless Chromium against the single
// instance: Olivia makes her new group public with a description and puts its
// #general panel on the web; Pablo finds it in Explore and joins; Olivia's
// message (Markdown and an HTML tag) shows on the public page to a visitor
// with no account, as bold text and the tag as text; Pablo makes a personal
// feed link that a feed reader can fetch; Olivia makes the group private and
// the public page is gone at once.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { afterEach, describe, it } from 'node:test';
import type { Group } from '@im/protocol';
import { type Page } from 'playwright-core';
import { api } from './harness/api.ts';
import { collectPageErrors, describePagesOnFailure, register, send } from './harness/app.ts';
import { SHOTS } from './harness/server.ts';
import { webAppStory } from './harness/story.ts';
import { STEP_DEADLINE_MS } from './harness/deadline.ts';

const DESCRIPTION = 'Seeds, soil and sunshine: swap cuttings and tips.';
const MESSAGE = 'Spring planting starts **bold** and early <script>alert(1)</script>';

describe('public groups, web-public panels and feeds in the web client', () => {
  const story = webAppStory(import.meta.url);
  const pages: Record<string, Page> = {};
  const pageErrors: string[] = [];
  /** Dialogs (alert, confirm) the anonymous visitor's page opened: a script from a message would. */
  const visitorDialogs: string[] = [];
  let groupId: string;
  let panelId: string;
  let converseId: string;
  let ownerToken: string;

  /** A fresh browser context, its errors collected (app pages only: the public page is not the app). */
  const newPage = async (label: string, opts: { app: boolean }): Promise<Page> => {
    const context = await story.browser.newContext({ viewport: { width: 1280, height: 800 } });
    context.setDefaultTimeout(STEP_DEADLINE_MS);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: story.server.base });
    const page = await context.newPage();
    pages[label] = page;
    collectPageErrors(page, label, pageErrors, opts.app);
    return page;
  };

  /** Opens the group's settings on a tab, as its owner. */
  const groupSettings = async (page: Page, tab: string) => {
    await page.getByRole('button', { name: 'Gardeners: group menu' }).click();
    await page.getByRole('menuitem', { name: 'Group settings' }).click();
    const settings = page.getByRole('dialog', { name: 'Gardeners settings' });
    await settings.getByRole('tab', { name: tab }).click();
    return settings;
  };

  afterEach(describePagesOnFailure(() => pages));

  it('lets Olivia make her new group public, with a description', async () => {
    const page = await newPage('olivia', { app: true });
    await register(page, story.server.base, 'olivia');
    ownerToken = (await page.evaluate(() => localStorage.getItem('im.token')))!;
    await page.getByRole('button', { name: 'Create a group' }).first().click();
    await page.getByLabel('Group name').fill('Gardeners');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.getByTestId('converse-title').filter({ hasText: '#general' }).waitFor();
    [, , groupId] = new URL(page.url()).pathname.split('/') as [string, string, string];

    const settings = await groupSettings(page, 'Visibility');
    const isPrivate = settings.getByRole('radio', { name: /^Private/ });
    assert.equal(await isPrivate.isChecked(), true, 'a new group is private');
    await settings.getByRole('radio', { name: /^Public/ }).check();
    await settings.getByLabel('Description').fill(DESCRIPTION);
    await settings.getByRole('button', { name: 'Save' }).click();
    await settings.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    await page.keyboard.press('Escape');
    await settings.waitFor({ state: 'detached' });

    const group = await api<Group>(story.server.base, ownerToken, 'GET', `/api/groups/${groupId}`);
    assert.equal(group.visibility, 'public');
    assert.equal(group.description, DESCRIPTION);
    panelId = group.panels[0]!.id;
    converseId = group.panels[0]!.converseId;
  });

  it('turns #general web-public and shows its public link and feeds, each to copy', async () => {
    const page = pages.olivia!;
    await page.getByRole('button', { name: 'Edit panel general' }).click();
    const dialog = page.getByRole('dialog', { name: 'Panel settings' });
    const toggle = dialog.getByRole('switch', { name: 'Web-public' });
    assert.equal(await toggle.isChecked(), false);
    await toggle.check();
    const link = `${story.server.base}/p/${panelId}`;
    const shown = dialog.getByTestId('public-link');
    await shown.waitFor();
    assert.equal(await shown.inputValue(), link);
    assert.equal(await dialog.getByTestId('atom-link').inputValue(), `${link}/feed.atom`);
    assert.equal(await dialog.getByTestId('rss-link').inputValue(), `${link}/feed.rss`);
    await dialog.getByRole('button', { name: 'Copy public link' }).click();
    await dialog.getByRole('button', { name: 'Copied public link' }).waitFor();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), link);
    await page.screenshot({ path: join(SHOTS, 'web-public-panel.png') });
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await page.getByTestId('web-public-mark').waitFor();
  });

  it('lets Pablo find the group in Explore, with its description and member count, and join it', async () => {
    // Setup (API): a second public group, for the search to leave out.
    const chess = await api<Group>(story.server.base, ownerToken, 'POST', '/api/groups', { name: 'Chess club' });
    await api(story.server.base, ownerToken, 'PATCH', `/api/groups/${chess.id}`, { visibility: 'public' });

    const page = await newPage('pablo', { app: true });
    await register(page, story.server.base, 'pablo');
    await page
      .getByRole('navigation', { name: 'Groups' })
      .getByRole('button', { name: 'Explore public groups' })
      .click();
    const explore = page.getByRole('region', { name: 'Explore public groups' });
    const entries = explore.getByTestId('directory-group');
    await entries.filter({ hasText: 'Chess club' }).waitFor();
    await explore.getByRole('searchbox', { name: 'Search public groups' }).fill('GARDEN');
    await entries.filter({ hasText: 'Chess club' }).waitFor({ state: 'detached' });
    const entry = entries.filter({ hasText: 'Gardeners' });
    assert.equal(await entries.count(), 1, 'the search narrows the list');
    assert.equal(await entry.getByTestId('description').textContent(), DESCRIPTION);
    assert.equal(await entry.getByTestId('member-count').textContent(), '1 member');
    await page.screenshot({ path: join(SHOTS, 'explore.png') });

    await explore.getByRole('searchbox', { name: 'Search public groups' }).fill('no such garden');
    await explore.getByText('No public groups match “no such garden”.').waitFor();
    await explore.getByRole('searchbox', { name: 'Search public groups' }).fill('garden');
    await entry.getByRole('button', { name: 'Join Gardeners' }).click();
    await page.getByTestId('converse-title').filter({ hasText: '#general' }).waitFor();
    assert.equal(new URL(page.url()).pathname, `/g/${groupId}/${converseId}`);
    await page
      .getByTestId('rail-group')
      .and(page.getByRole('button', { name: 'Gardeners', exact: true }))
      .waitFor();
    // Olivia sees the newcomer.
    await pages.olivia!.getByTestId('member').filter({ hasText: 'pablo' }).waitFor();
  });

  it("shows Olivia's message on the public page to a visitor: Markdown rendered, HTML as text, no script run", async () => {
    await send(pages.olivia!, MESSAGE);
    await pages.pablo!.getByTestId('message-content').filter({ hasText: 'Spring planting' }).waitFor();

    const visitor = await newPage('visitor', { app: false });
    visitor.on('dialog', (dialog) => {
      visitorDialogs.push(dialog.message());
      void dialog.dismiss();
    });
    const res = await visitor.goto(`${story.server.base}/p/${panelId}`);
    assert.equal(res?.status(), 200);
    const bold = visitor.locator('strong, b').filter({ hasText: /^bold$/ });
    await bold.waitFor();
    await visitor.getByText('<script>alert(1)</script>', { exact: false }).waitFor();
    const scripts = await visitor
      .locator('script')
      .evaluateAll((els) => els.filter((e) => (e.textContent ?? '').includes('alert(1)')).length);
    assert.equal(scripts, 0, 'the tag is text, not an element');
    assert.deepEqual(visitorDialogs, []);
    assert.match(await visitor.locator('body').innerText(), /Gardeners/);

    for (const [url, type] of [
      [`${story.server.base}/p/${panelId}/feed.atom`, 'application/atom+xml'],
      [`${story.server.base}/p/${panelId}/feed.rss`, 'application/rss+xml'],
    ] as const) {
      const feed = await visitor.request.get(url);
      assert.equal(feed.status(), 200, url);
      assert.match(feed.headers()['content-type'] ?? '', new RegExp(`^${type.replace('+', '\\+')}`));
      assert.match(await feed.text(), /Spring planting/);
    }
  });

  it('gives Pablo a personal feed link in the settings that a feed reader fetches; a new one revokes it', async () => {
    const page = pages.pablo!;
    await page.getByRole('button', { name: 'Settings' }).click();
    const settings = page.getByRole('dialog', { name: 'Settings' });
    const feeds = settings.getByTestId('feeds');
    await feeds.getByRole('button', { name: 'Create feed link' }).click();
    const field = feeds.getByTestId('feed-url');
    await field.waitFor();
    const first = await field.inputValue();
    assert.match(first, new RegExp(`^${story.server.base}/feeds/[^/]+/converses/${converseId}\\.atom$`));
    const feed = await page.request.get(first);
    assert.equal(feed.status(), 200);
    assert.match(feed.headers()['content-type'] ?? '', /^application\/atom\+xml/);
    assert.match(await feed.text(), /Spring planting/);

    await feeds.getByRole('button', { name: 'Replace feed link' }).click();
    await page.waitForFunction(
      (old) => (document.querySelector<HTMLInputElement>('[data-testid="feed-url"]')?.value ?? old) !== old,
      first,
    );
    const second = await field.inputValue();
    await page.screenshot({ path: join(SHOTS, 'personal-feeds.png') });
    assert.equal((await page.request.get(second)).status(), 200);
    assert.equal((await page.request.get(first)).status(), 404, 'the replaced link stops working');
    await page.keyboard.press('Escape');
    await settings.waitFor({ state: 'detached' });
  });

  it('takes the page off the web at once when Olivia makes the group private', async () => {
    const page = pages.olivia!;
    const settings = await groupSettings(page, 'Visibility');
    await settings.getByRole('radio', { name: /^Private/ }).check();
    await settings.getByTestId('private-warning').waitFor();
    await page.screenshot({ path: join(SHOTS, 'group-visibility.png') });
    await settings.getByRole('button', { name: 'Save' }).click();
    await settings.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    await page.keyboard.press('Escape');

    const visitor = pages.visitor!;
    const res = await visitor.reload();
    assert.equal(res?.status(), 404);
    const feed = await visitor.request.get(`${story.server.base}/p/${panelId}/feed.atom`);
    assert.equal(feed.status(), 404);

    // The panel is off the web too, and its switch waits for the group to be public again.
    await page.getByTestId('web-public-mark').waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Edit panel general' }).click();
    const dialog = page.getByRole('dialog', { name: 'Panel settings' });
    const toggle = dialog.getByRole('switch', { name: 'Web-public' });
    assert.equal(await toggle.isChecked(), false);
    assert.equal(await toggle.isDisabled(), true);
    await page.keyboard.press('Escape');

    // Explore no longer lists it.
    const pablo = pages.pablo!;
    await pablo
      .getByRole('navigation', { name: 'Groups' })
      .getByRole('button', { name: 'Explore public groups' })
      .click();
    const entries = pablo.getByTestId('directory-group');
    await entries.filter({ hasText: 'Chess club' }).waitFor();
    assert.equal(await entries.filter({ hasText: 'Gardeners' }).count(), 0);
    assert.deepEqual(pageErrors, []);
  });
});
